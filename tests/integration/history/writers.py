"""Forks writers (writer.py) one after the other, the app's modules imported once: a forked
writer starts at once, where a new Python spends 0.15 s importing them (POSIX only: Windows has
no fork, and test_crash_safety.py starts writer.py itself there). The history is opened in each
writer, after the fork, as writer.py does.

Usage: writers.py CONFIG_PATH. Each line `CHANNEL_ID SEED` read on stdin forks a writer of that
channel, which says `started PID`, then prints its message ids until it is killed; once it is
gone, this process says `ended PID` on a line of its own: after a new line, which ends the line
the writer was cut in (a killed writer can leave an id without its new line in the pipe they
share), or an empty one. Everything between the two is the writer's; the line just before
`ended` is that cut or empty line. The end of stdin ends this process."""

from __future__ import annotations

import os
import sys
import traceback

from tests.integration.history import writer


def main() -> None:
    config_path = sys.argv[1]
    for line in sys.stdin:
        channel_id, seed = line.split()
        pid = os.fork()
        if pid == 0:  # the writer
            try:
                print(f"started {os.getpid()}", flush=True)
                sys.argv = ["writer.py", config_path, channel_id, seed]
                writer.main()
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(1)  # it never ends by itself: it is killed
        os.waitpid(pid, 0)
        print(f"\nended {pid}", flush=True)


if __name__ == "__main__":
    main()
