#!/usr/bin/env python3
"""Runs a command and prints one line: its wall seconds, its CPU seconds (user + system, the process and
its threads), and the CPU seconds of its busiest thread, read from /proc/PID/task/*/stat every 10 ms
(the last value seen; a thread that lives under 10 ms may be missed). On a machine that other work keeps
busy the wall time says little, while the busiest thread's CPU is about the time the command would take
on free cores (its critical path, when no thread waits long for another): `make bench-scaling` prints
both. Usage: thread-cpu.py COMMAND [ARG…] (its stdout goes to THREAD_CPU_STDOUT, default /dev/null)."""
import os
import resource
import subprocess
import sys
import time

out = open(os.environ.get("THREAD_CPU_STDOUT", os.devnull), "w")
tick = os.sysconf("SC_CLK_TCK")
started = time.time()
child = subprocess.Popen(sys.argv[1:], stdout=out)
seen = {}
while child.poll() is None:
    try:
        tids = os.listdir(f"/proc/{child.pid}/task")
    except OSError:
        tids = []
    for tid in tids:
        try:
            fields = open(f"/proc/{child.pid}/task/{tid}/stat").read().rsplit(")", 1)[1].split()
            seen[tid] = (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            pass
    time.sleep(0.01)
wall = time.time() - started
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
if child.returncode != 0:
    sys.exit(f"{' '.join(sys.argv[1:])} failed ({child.returncode})")
print(f"{wall:.2f} {usage.ru_utime + usage.ru_stime:.2f} {max(seen.values(), default=0.0):.2f}")
