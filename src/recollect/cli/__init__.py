"""The command line for people. Thin: it parses arguments and prints what the library computed."""

import click


@click.group()
@click.version_option(package_name="recollect")
def main() -> None:
    """recollect: search your coding agents' past sessions, and keep curated memories."""


if __name__ == "__main__":
    main()
