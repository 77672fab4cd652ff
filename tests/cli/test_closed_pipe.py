"""`recollect … | head`: when the reader has gone, recollect stops quietly, as other command-line tools do."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def run_into(args: list[str], *, reader_gone: bool) -> subprocess.CompletedProcess[str]:
    read_end, write_end = os.pipe()
    if reader_gone:
        os.close(read_end)  # `head` has read what it wanted and exited before recollect writes
    try:
        return subprocess.run(
            [sys.executable, "-m", "recollect.cli", *args], stdout=write_end, stderr=subprocess.PIPE, text=True
        )
    finally:
        os.close(write_end)
        if not reader_gone:
            with os.fdopen(read_end) as reader:
                reader.read()


@pytest.mark.parametrize("args", [["config", "show"], ["sessions"], ["search", "--", "--help"]])
def test_a_closed_pipe_is_no_error_message(args: list[str]) -> None:
    read = run_into(args, reader_gone=False)
    assert read.returncode == 0, read.stderr  # positive control: the same command, with a reader
    gone = run_into(args, reader_gone=True)
    assert gone.returncode == 141  # what a writer stopped by SIGPIPE exits with
    assert gone.stderr == "", gone.stderr  # no "recollect: Broken pipe", no "Exception ignored"


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["search", "--help"], ["memory", "review", "--help"], []])
def test_help_and_version_into_a_closed_pipe_succeed(args: list[str]) -> None:
    # `recollect --help | head -1` under `set -o pipefail`: help is no data the reader could have missed.
    read = run_into(args, reader_gone=False)
    assert read.returncode == 0 and read.stderr == "", read.stderr  # positive control, with a reader
    gone = run_into(args, reader_gone=True)
    assert (gone.returncode, gone.stderr) == (0, ""), gone.stderr


def test_the_program_name_alone_prints_its_help_and_succeeds() -> None:
    asked = subprocess.run([sys.executable, "-m", "recollect.cli", "--help"], capture_output=True, text=True)
    assert asked.returncode == 0 and "Commands:" in asked.stdout  # positive control: the help asked for
    bare = subprocess.run([sys.executable, "-m", "recollect.cli"], capture_output=True, text=True)
    assert (bare.returncode, bare.stderr) == (0, "")
    assert bare.stdout == asked.stdout
    # a sub-group alone prints its own help the same way
    group = subprocess.run([sys.executable, "-m", "recollect.cli", "memory"], capture_output=True, text=True)
    assert group.returncode == 0 and "Commands:" in group.stdout, group.stderr
