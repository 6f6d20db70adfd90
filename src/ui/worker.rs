//! [`Job`]: one value computed on a worker thread (loading files, a file dialog, an export, the diagnostics), so
//! that a frame never waits on it. The worker computes the value and wakes the UI (a repaint); the UI polls once
//! per frame and takes the value when it is there. Dropping a job abandons its result (the worker finishes and
//! its send goes nowhere). A leaf: no egui, nothing else of the viewer.

use std::sync::mpsc;
use std::time::Duration;

use web_time::Instant;

/// The worker ended without an answer (it panicked).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the worker thread stopped unexpectedly (a bug: please report it)")]
pub struct JobLost;

/// One value being computed on a worker thread.
pub struct Job<T> {
    rx: mpsc::Receiver<T>,
    started: Instant,
}

impl<T: Send + 'static> Job<T> {
    /// Runs `work` on a new thread named `name`, then calls `wake` (to repaint the UI). Fails only when no
    /// thread can be started. In the web page it runs `work` at once.
    pub fn spawn(
        name: &str,
        work: impl FnOnce() -> T + Send + 'static,
        wake: impl FnOnce() + Send + 'static,
    ) -> std::io::Result<Self> {
        // A web page has one thread: the work runs now, and the job is done when it is polled.
        #[cfg(target_arch = "wasm32")]
        {
            let _ = name;
            let job = Self::finished(work());
            wake();
            Ok(job)
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let (tx, rx) = mpsc::channel();
            std::thread::Builder::new().name(name.to_owned()).spawn(move || {
                let _ = tx.send(work());
                wake();
            })?;
            Ok(Self { rx, started: Instant::now() })
        }
    }

    /// A job that is already done: `value` is taken at the first poll.
    pub fn finished(value: T) -> Self {
        let (tx, rx) = mpsc::channel();
        let _ = tx.send(value);
        Self { rx, started: Instant::now() }
    }

    /// The value once the worker has produced it; `None` while it is still working.
    pub fn poll(&self) -> Option<Result<T, JobLost>> {
        match self.rx.try_recv() {
            Ok(value) => Some(Ok(value)),
            Err(mpsc::TryRecvError::Empty) => None,
            Err(mpsc::TryRecvError::Disconnected) => Some(Err(JobLost)),
        }
    }

    /// How long ago the job started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Barrier};

    #[test]
    fn the_value_arrives_once_the_worker_is_done_and_the_ui_is_woken() {
        let gate = Arc::new(Barrier::new(2));
        let woken = Arc::new(AtomicBool::new(false));
        let (worker_gate, worker_woken) = (gate.clone(), woken.clone());
        let job = Job::spawn(
            "test-job",
            move || {
                worker_gate.wait();
                6 * 7
            },
            move || worker_woken.store(true, Ordering::SeqCst),
        )
        .unwrap();
        // The worker is held at the gate: nothing yet.
        assert!(job.poll().is_none());
        gate.wait();
        let value = loop {
            if let Some(v) = job.poll() {
                break v;
            }
            std::thread::yield_now();
        };
        assert_eq!(value, Ok(42));
        // `wake` runs after the send; it has run once the thread is gone.
        while !woken.load(Ordering::SeqCst) {
            std::thread::yield_now();
        }
        assert_eq!(Job::finished("x").poll(), Some(Ok("x")));
    }

    #[test]
    fn a_worker_that_panics_is_reported_as_lost() {
        let job = Job::<u32>::spawn("test-job-panics", || panic!("deliberate"), || {}).unwrap();
        let result = loop {
            if let Some(r) = job.poll() {
                break r;
            }
            std::thread::yield_now();
        };
        assert_eq!(result, Err(JobLost));
    }
}
