/**
 * Server-side figures from /proc: CPU time (user + system, all threads of the process, in clock
 * ticks) and peak resident set size. CPU time per request is the most stable figure on a noisy
 * machine: it does not depend on how much of the core the server was given.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** User and system CPU seconds consumed so far by `pid` (all threads). */
export function cpuTimes(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces, hence the last ')'); utime and stime
  // are fields 14 and 15 of proc(5), i.e. 11 and 12 after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) / TICKS_PER_SECOND, system: Number(fields[12]) / TICKS_PER_SECOND };
}

/** Peak resident set size (VmHWM) in bytes. */
export function peakRss(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

/** Resets VmHWM to the current RSS (proc(5): writing 5 to clear_refs), so a peak is per scenario. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
