//! Track events: changes to a track's speed, weight, position or enable flag keyed at global times, applied at
//! once or ramped over a duration with a linear or cubic-spline transition. This module holds the event types
//! and the ramp maths; the controller decides when events start and end (see `Controller::advance`).

/// How a ramp moves from its start value to its end value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Transition {
    /// Constant rate.
    #[default]
    Linear,
    /// The cubic ease `f(u) = 2(x − y)u³ + 3(y − x)u² + x` from `x` to `y`: zero slope at both ends.
    CubicSpline,
}

impl Transition {
    /// The value at progress `u` (clamped to `[0, 1]`) of a ramp from `x` to `y`.
    #[inline]
    pub fn value(self, x: f64, y: f64, u: f64) -> f64 {
        let u = if u.is_nan() { 1.0 } else { u.clamp(0.0, 1.0) };
        match self {
            Transition::Linear => x + (y - x) * u,
            Transition::CubicSpline => 2.0 * (x - y) * u * u * u + 3.0 * (y - x) * u * u + x,
        }
    }
}

/// What an event changes, with its target value.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub enum EventKind {
    /// Playback speed (1 = normal, negative plays backwards).
    Speed(f32),
    /// Mixer weight.
    Weight(f32),
    /// Track position in seconds. A ramp moves the position continuously (it fires callbacks like playback and
    /// overrides the speed while it runs); an instant change is a jump and fires nothing.
    Position(f64),
    /// Enables or disables the track, at the event's start (never ramped; the duration is ignored).
    Enable(bool),
}

/// Which property of a track an event drives; at most one event per (track, property) is active at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Property {
    Speed,
    Weight,
    Position,
    Enable,
}

impl EventKind {
    pub fn property(&self) -> Property {
        match self {
            EventKind::Speed(_) => Property::Speed,
            EventKind::Weight(_) => Property::Weight,
            EventKind::Position(_) => Property::Position,
            EventKind::Enable(_) => Property::Enable,
        }
    }

    /// The target as a number (enable: 1 or 0).
    pub fn target(&self) -> f64 {
        match *self {
            EventKind::Speed(v) | EventKind::Weight(v) => f64::from(v),
            EventKind::Position(v) => v,
            EventKind::Enable(on) => f64::from(u8::from(on)),
        }
    }
}

/// A change to one track at a global time (the controller's clock, seconds).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct TrackEvent {
    /// The track it changes.
    pub track: usize,
    pub kind: EventKind,
    /// Global time at which it starts.
    pub start: f64,
    /// Seconds the ramp takes; 0 (or less) changes the value at once.
    pub duration: f64,
    pub transition: Transition,
    /// The value the ramp starts from; `None` takes the track's value when the event starts (so a ramp that
    /// follows another continues from wherever that one left the track).
    pub from: Option<f64>,
}

impl TrackEvent {
    /// An event that ramps `kind` over `duration` seconds from `start`, starting from the track's current value.
    pub fn new(track: usize, kind: EventKind, start: f64, duration: f64, transition: Transition) -> Self {
        Self { track, kind, start, duration, transition, from: None }
    }

    /// Global time at which the event is over (its start for instant and enable events).
    pub fn end(&self) -> f64 {
        self.start + self.ramp_duration()
    }

    /// The duration that actually applies: 0 for enable events and non-positive or invalid durations.
    pub fn ramp_duration(&self) -> f64 {
        match self.kind {
            EventKind::Enable(_) => 0.0,
            _ if self.duration > 0.0 && self.duration.is_finite() => self.duration,
            _ => 0.0,
        }
    }
}

/// Identifies a keyed event, for removing it or finding it in [`super::Controller::events`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct EventId(pub u64);

/// Where an event stands relative to the controller's clock.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub enum EventState {
    /// Not started yet.
    Pending,
    /// Ramping; `progress` in `[0, 1)` is how far along the ramp is (before the transition's easing).
    Active { progress: f32 },
}

/// A keyed event as the controller holds it; what a timeline draws.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct ScheduledEvent {
    pub id: EventId,
    pub event: TrackEvent,
    pub state: EventState,
    /// The value the ramp started from, once it is active.
    pub(crate) started_from: Option<f64>,
}

impl ScheduledEvent {
    /// Value of the ramp at global time `t` (needs the event to be active).
    pub(crate) fn value_at(&self, t: f64) -> f64 {
        let e = &self.event;
        let x = self.started_from.unwrap_or_else(|| e.kind.target());
        let d = e.ramp_duration();
        if d <= 0.0 {
            return e.kind.target();
        }
        e.transition.value(x, e.kind.target(), (t - e.start) / d)
    }
}

/// The integral of `f` over `[a, b]` by Simpson's rule: exact for the cubic (and linear) ramps above, which is
/// how the distance a speed ramp travels does not depend on how time was cut into frames.
pub(crate) fn simpson(a: f64, b: f64, f: impl Fn(f64) -> f64) -> f64 {
    (b - a) / 6.0 * (f(a) + 4.0 * f(0.5 * (a + b)) + f(b))
}

/// A root of a monotonic `f` on `[a, b]` where `f(a)` and `f(b)` have opposite signs (bisection; both ramps are
/// monotonic, so there is exactly one).
pub(crate) fn monotonic_root(mut a: f64, mut b: f64, f: impl Fn(f64) -> f64) -> f64 {
    let fa_negative = f(a) < 0.0;
    for _ in 0..60 {
        let m = 0.5 * (a + b);
        if (f(m) < 0.0) == fa_negative {
            a = m;
        } else {
            b = m;
        }
    }
    0.5 * (a + b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cubic_spline_is_the_cubic_ease_with_flat_ends() {
        let t = Transition::CubicSpline;
        assert_eq!(t.value(2.0, 6.0, 0.0), 2.0);
        assert_eq!(t.value(2.0, 6.0, 1.0), 6.0);
        assert_eq!(t.value(2.0, 6.0, 0.5), 4.0);
        // f(0.25) = 2(x−y)/64 + 3(y−x)/16 + x = −0.125 + 0.75 + 2
        assert!((t.value(2.0, 6.0, 0.25) - 2.625).abs() < 1e-12);
        let slope = (t.value(2.0, 6.0, 1e-6) - 2.0) / 1e-6;
        assert!(slope.abs() < 1e-3, "{slope}");
        assert_eq!(Transition::Linear.value(2.0, 6.0, 0.25), 3.0);
        assert_eq!(Transition::Linear.value(2.0, 6.0, 7.0), 6.0, "clamped");
    }

    #[test]
    fn simpson_is_exact_for_the_ramps() {
        let f = |t: f64| Transition::CubicSpline.value(-1.0, 3.0, t / 2.0);
        // ∫₀² of the eased ramp = 2 · mean = 2 · (−1 + 3)/2 = 2 (the ease is symmetric about its midpoint).
        assert!((simpson(0.0, 2.0, f) - 2.0).abs() < 1e-12);
        let piecewise = simpson(0.0, 0.3, f) + simpson(0.3, 1.7, f) + simpson(1.7, 2.0, f);
        assert!((piecewise - 2.0).abs() < 1e-12);
    }

    #[test]
    fn root_of_a_ramp_through_zero() {
        let f = |t: f64| Transition::Linear.value(1.0, -3.0, t);
        assert!((monotonic_root(0.0, 1.0, f) - 0.25).abs() < 1e-12);
    }

    #[test]
    fn enable_events_are_instant() {
        let e = TrackEvent::new(0, EventKind::Enable(true), 2.0, 5.0, Transition::Linear);
        assert_eq!(e.end(), 2.0);
        let e = TrackEvent::new(0, EventKind::Weight(1.0), 2.0, f64::NAN, Transition::Linear);
        assert_eq!(e.end(), 2.0);
    }
}
