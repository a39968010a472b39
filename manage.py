#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # On a developer's machine (no SECRET_KEY in the environment) commands run with
    # the embedded development settings, as bin/serve does. A deployment always sets
    # SECRET_KEY, and then DEBUG stays off unless it says otherwise.
    if "SECRET_KEY" not in os.environ:
        os.environ.setdefault("DEBUG", "1")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
