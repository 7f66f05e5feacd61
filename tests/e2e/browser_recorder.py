"""Stands in for the system browser (BROWSER=...): appends the address it is given to a file."""

import sys

if __name__ == "__main__":
    record, url = sys.argv[1], sys.argv[2]
    with open(record, "a", encoding="utf-8") as out:
        out.write(url + "\n")
