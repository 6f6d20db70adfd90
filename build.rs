//! Links the `bonescope` program as a position-dependent executable on Linux with the GNU toolchain.
//!
//! Why: the program is often run once per file (`bonescope info` over a folder, scripts, `check` on one file), so
//! its start-up counts. As a position-independent executable the dynamic loader applies ~44,000 relative
//! relocations at every start and writes the 740 KB of `.data.rel.ro` they point into, one copied page at a time:
//! about 190 of the 340 page faults and a third of the CPU time of `bonescope --version` (1.5–1.6 ms → 1.0 ms,
//! measured with `perf stat`). A position-dependent executable has them resolved at link time. The price is that
//! the program's own code and data load at a fixed address (shared libraries, heap and stacks stay randomised);
//! the loaders it runs are safe Rust. Only the program: the library, tests and benches link as before.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        // rustc passes `-pie` to the C compiler driver; a later `-no-pie` overrides it.
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
