"""The engine pauses the cyclic collector only while it works, and always gives it back."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from metrics.runtime.gc_pause import gc_paused
from metrics.model import InputError
from metrics.formats.readers import read_documents

GUM = Path(__file__).resolve().parent.parent / "samples" / "gum"


def test_paused_inside_restored_after_even_on_error(tmp_path: Path) -> None:
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block leaves it as it found it
    assert gc.isenabled()
    broken = tmp_path / "broken.conll"
    broken.write_text("#begin document (a); part 000\nx 0 0 w - - - - - - * (1\n")
    with pytest.raises(InputError):
        read_documents(str(broken))
    assert gc.isenabled()
    read_documents(str(GUM / "key.gum.conll"))
    assert gc.isenabled()


def test_a_disabled_collector_stays_disabled() -> None:
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_command_runs_with_the_collector_paused_and_gives_it_back(monkeypatch, capsys) -> None:
    from workbench import cli
    from workbench.commands import score

    seen = []
    real = score.run

    def run(args):
        seen.append(gc.isenabled())
        return real(args)

    monkeypatch.setattr(score, "run", run)
    assert cli.main(["score", str(GUM / "key.gum.conll"), str(GUM / "response.gum.conll"), "--metrics", "muc"]) == 0
    assert seen == [False] and gc.isenabled()
    assert "MUC" in capsys.readouterr().out
