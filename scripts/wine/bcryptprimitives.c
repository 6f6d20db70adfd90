/* bcryptprimitives.dll for Wine 8.0 (Debian bookworm's), which does not have it: Rust's standard library takes
 * its random numbers (the seeds of HashMap) from ProcessPrng there, as Windows 10 and later provide it, and a
 * program that imports it does not start under a Wine without the DLL (Wine 9 has one). Only the Wine test
 * (scripts/test-windows.sh) installs this into its prefix; it is not part of the Windows build.
 *
 * ProcessPrng fills the buffer with random bytes and always succeeds; here they come from RtlGenRandom
 * (advapi32's SystemFunction036), which Wine has, in pieces of at most 4 GiB - 1 (its length is 32-bit). */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG piece = length > 0xFFFFFFFFu ? 0xFFFFFFFFu : (ULONG)length;
        if (!SystemFunction036(data, piece)) {
            return FALSE;
        }
        data += piece;
        length -= piece;
    }
    return TRUE;
}
