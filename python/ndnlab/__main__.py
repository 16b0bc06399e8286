"""`python -m ndnlab campaign|plot|report ...`: the same commands as the ndnlab-* executables."""

import sys

COMMANDS = ("campaign", "plot", "report")


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in COMMANDS:
        print(f"usage: python -m ndnlab {{{','.join(COMMANDS)}}} [options]", file=sys.stderr)
        return 2
    command, rest = argv[0], argv[1:]
    if command == "campaign":
        from ndnlab.campaign import main as run
    elif command == "plot":
        from ndnlab.plot import main as run
    else:
        from ndnlab.report import main as run
    return run(rest, prog=f"ndnlab {command}")


if __name__ == "__main__":
    sys.exit(main())
