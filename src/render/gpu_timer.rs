//! GPU time of a frame from timestamp queries, where the adapter has them (`Features::TIMESTAMP_QUERY`): an empty
//! compute pass that writes a timestamp as it begins is encoded before the frame's passes and one that writes a
//! timestamp as it ends after them; the difference, times the queue's timestamp period, is the time the GPU spent
//! on the frame's command buffer. Adapters without timestamps (some software rasterisers) get no timer, and the
//! benchmark says so and reports wall-clock time only.

use super::RenderError;

/// Two timestamps per frame and the buffers to read them back.
pub struct GpuTimer {
    queries: wgpu::QuerySet,
    resolved: wgpu::Buffer,
    readback: wgpu::Buffer,
    /// Nanoseconds per timestamp tick.
    period_ns: f64,
}

const BYTES: u64 = 2 * wgpu::QUERY_SIZE as u64;

impl GpuTimer {
    /// A timer, or `None` when the device was not opened with timestamp queries.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Option<Self> {
        if !device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
            return None;
        }
        let queries = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("frame timestamps"),
            ty: wgpu::QueryType::Timestamp,
            count: 2,
        });
        let buffer = |label, usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: BYTES,
                usage,
                mapped_at_creation: false,
            })
        };
        let resolved = buffer("timestamps", wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC);
        let readback = buffer("timestamps read-back", wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST);
        Some(Self { queries, resolved, readback, period_ns: f64::from(queue.get_timestamp_period()) })
    }

    fn stamp(&self, encoder: &mut wgpu::CommandEncoder, begin: Option<u32>, end: Option<u32>) {
        encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("timestamp"),
            timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                query_set: &self.queries,
                beginning_of_pass_write_index: begin,
                end_of_pass_write_index: end,
            }),
        });
    }

    /// Encodes the first timestamp: call before the frame's passes.
    pub fn begin(&self, encoder: &mut wgpu::CommandEncoder) {
        self.stamp(encoder, Some(0), None);
    }

    /// Encodes the second timestamp and the copy to the read-back buffer: call after the frame's passes.
    pub fn end(&self, encoder: &mut wgpu::CommandEncoder) {
        self.stamp(encoder, None, Some(1));
        encoder.resolve_query_set(&self.queries, 0..2, &self.resolved, 0);
        encoder.copy_buffer_to_buffer(&self.resolved, 0, &self.readback, 0, BYTES);
    }

    /// Milliseconds between the two timestamps of the last frame submitted (waits for it).
    pub fn read_ms(&self, device: &wgpu::Device) -> Result<f64, RenderError> {
        let bytes = super::offscreen::read_buffer(device, &self.readback)?;
        let tick =
            |i: usize| bytes.get(i * 8..i * 8 + 8).and_then(|b| <[u8; 8]>::try_from(b).ok()).map(u64::from_le_bytes);
        let (Some(t0), Some(t1)) = (tick(0), tick(1)) else {
            return Err(RenderError::ReadBack("the timestamp read-back is too short"));
        };
        Ok(t1.wrapping_sub(t0) as f64 * self.period_ns / 1e6)
    }
}
