#![allow(dead_code)]
//! Running a command and measuring its peak resident memory, from the kernel's account of the process itself
//! (`wait4`'s resource usage, `ru_maxrss`): what `/usr/bin/time -v` reports as "Maximum resident set size".

use std::process::{Command, Stdio};

/// Runs `command` (its output discarded) and returns its exit code and peak resident memory in bytes.
pub fn run_measured(command: &mut Command) -> (i32, u64) {
    let child = command.stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("start the command");
    let pid = child.id() as libc::pid_t;
    let mut status: libc::c_int = 0;
    // SAFETY: `usage` is a plain C struct the call fills in; `status` an int it writes; `pid` is our own child,
    // which `std` never waits for afterwards (the `Child` handle is dropped without `wait`).
    #[allow(unsafe_code)]
    let (waited, usage) = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        (libc::wait4(pid, &mut status, 0, &mut usage), usage)
    };
    drop(child);
    assert_eq!(waited, pid, "wait4 failed");
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 };
    // Linux reports kilobytes.
    (code, usage.ru_maxrss.max(0) as u64 * 1024)
}
