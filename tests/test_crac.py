"""`corefwb crac`: datasets paired by file name, every number the one `score --conventions corefud`
gives per dataset and setting, the macro-average their plain mean, significance marks, formats.

The datasets are made here: random documents of one-to-three-word mentions, a response whose
mentions are sometimes widened (same head: head match finds them, exact match does not) or moved,
and whose chains are sometimes cut, so that the four variants give four different numbers.
(corefud-scorer's own numbers on real data: benchmarks/check_crac.py.)
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

from metrics.conventions.corefud import Settings
from corefud_support import score_corpus
from metrics.statistics.crac import VARIANTS, variant_settings
from metrics.formats.corefud import read_corefud
from metrics.formats.datasets import dataset_name, pair
from metrics.model import InputError
from workbench.cli import main


def _document(rng: random.Random, errors: random.Random, name: str, noise: float) -> tuple[list[str], list[str]]:
    """A key (drawn by `rng`) and a response (its errors drawn by `errors`) document, CoNLL-U
    lines over the same 3 sentences of 12 words."""
    key_lines, response_lines = [f"# newdoc id = {name}"], [f"# newdoc id = {name}"]
    entities = [f"e{i}" for i in range(1, 5)]
    for s in range(3):
        spans = []  # (start, length, head offset, entity)
        w = 0
        while w < 11:
            length = rng.choice((1, 1, 2, 3))
            if w + length <= 12 and rng.random() < 0.5:
                spans.append((w, length, rng.randrange(length), rng.choice(entities)))
                w += length + 1
            else:
                w += 1
        moved = []
        for start, length, head, eid in spans:
            if errors.random() < noise:  # widened to the right, same head (if there is room)
                length = min(length + 1, 12 - start)
            if errors.random() < noise / 2:
                eid = errors.choice(entities + ["e9"])
            if errors.random() < noise / 3:
                continue
            moved.append((start, length, head, eid))
        for lines, chosen in ((key_lines, spans), (response_lines, moved)):
            lines += [f"# sent_id = {name}-{s}"]
            marks: dict[int, list[str]] = {}
            for start, length, head, eid in chosen:
                if length == 1:
                    marks.setdefault(start, []).append(f"({eid}-thing-1-)")
                else:
                    marks.setdefault(start, []).append(f"({eid}-thing-{head + 1}-")
                    marks.setdefault(start + length - 1, []).append(f"{eid})")
            for i in range(12):
                misc = "Entity=" + "".join(marks[i]) if i in marks else "_"
                parent = 0 if i == 0 else 1
                lines.append(f"{i + 1}\tw{s}{i}\t_\tX\t_\t_\t{parent}\t{'root' if parent == 0 else 'dep'}\t_\t{misc}")
            lines.append("")
    return key_lines, response_lines


def _write(path: Path, documents: list[list[str]], zipped: bool = False) -> None:
    text = "# global.Entity = eid-etype-head-other\n" + "\n".join(line for doc in documents for line in doc) + "\n"
    if zipped:
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)


def make_run(root: Path, datasets: dict[str, int], noises: tuple[float, ...] = (0.3, 0.6), seed: int = 7) -> list[str]:
    """A key folder and one folder per noise level: `datasets` maps a dataset name to its
    number of documents.  Returns the system folders."""
    rng = random.Random(seed)
    (root / "key").mkdir()
    systems = [root / f"sys{i}" for i in range(len(noises))]
    for folder in systems:
        folder.mkdir()
    for name, count in datasets.items():
        filename = f"{name}-corefud-dev.conllu"
        keys: list[list[str]] = []
        responses: list[list[list[str]]] = [[] for _ in noises]
        for d in range(count):
            state = rng.random()
            for i, noise in enumerate(noises):
                # the same key in every system's draw, each system's own errors
                key, response = _document(random.Random(state), rng, f"{name}-{d}", noise)
                responses[i].append(response)
            keys.append(key)
        _write(root / "key" / filename, keys)
        for folder, docs in zip(systems, responses):
            _write(folder / filename, docs)
    return [str(s) for s in systems]


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["crac", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_dataset_names_follow_corefud_file_names():
    assert dataset_name("cs_pdt-corefud-dev.conllu") == "cs_pdt"
    assert dataset_name("en_gum-corefud-test.conllu.gz") == "en_gum"
    assert dataset_name("mine.conllu") == "mine"


def test_systems_pair_by_file_name_then_by_dataset(tmp_path):
    for folder, files in {"key": ["a_x-corefud-dev.conllu", "b_y-corefud-dev.conllu.gz"],
                          "s": ["a_x-corefud-dev.conllu.gz", "b_y-corefud-test.conllu", "c_z-corefud-dev.conllu"]}.items():
        (tmp_path / folder).mkdir()
        for name in files:
            (tmp_path / folder / name).write_text("")
    layout = pair(str(tmp_path / "key"), [str(tmp_path / "s")])
    assert [d.name for d in layout.datasets] == ["a_x", "b_y"]
    assert [Path(p).name for p in layout.responses[0]] == ["a_x-corefud-dev.conllu.gz", "b_y-corefud-test.conllu"]
    assert [Path(p).name for p in layout.unused] == ["c_z-corefud-dev.conllu"]
    (tmp_path / "s" / "b_y-corefud-train.conllu").write_text("")
    (tmp_path / "s" / "b_y-corefud-test.conllu").rename(tmp_path / "s" / "b_y-corefud-other.conllu")
    with pytest.raises(InputError, match="2 files of dataset 'b_y'"):
        pair(str(tmp_path / "key"), [str(tmp_path / "s")])
    with pytest.raises(InputError, match="no .conllu"):
        (tmp_path / "empty").mkdir()
        pair(str(tmp_path / "empty"), [])


@pytest.fixture(scope="module")
def run_folders(tmp_path_factory) -> tuple[Path, list[str]]:
    root = tmp_path_factory.mktemp("crac")
    return root, make_run(root, {"aa_one": 6, "bb_two": 3, "cc_three": 1})


def test_every_number_is_corefuds_per_dataset_and_variant_and_the_macro_their_mean(run_folders, capsys):
    root, systems = run_folders
    status, out, _ = _run(capsys, str(root / "key"), *systems, "--format", "json", "--bootstrap", "0", "--no-cache")
    assert status == 0
    report = json.loads(out)
    settings = {"head": Settings("head", False), "partial": Settings("partial", False),
                "exact": Settings("exact", False), "with_singletons": Settings("head", True)}
    seen = set()
    for s, system in enumerate(report["systems"]):
        for dataset in system["datasets"]:
            key = str(root / "key" / f"{dataset['name']}-corefud-dev.conllu")
            response = str(Path(systems[s]) / f"{dataset['name']}-corefud-dev.conllu")
            for variant, st in settings.items():
                expected = score_corpus(read_corefud(key), read_corefud(response), key, response, st)
                got = dataset["variants"][variant]
                for metric in ("muc", "bcub", "ceafe", "zero"):
                    assert {k: got[metric][k] for k in ("recall", "precision", "f1")} == {
                        "recall": expected.micro[metric].recall, "precision": expected.micro[metric].precision,
                        "f1": expected.micro[metric].f1}
                assert got["conll"] == (expected.micro["muc"].f1 + expected.micro["bcub"].f1
                                        + expected.micro["ceafe"].f1) / 3
                seen.add((variant, round(got["conll"], 12)))
        for variant in VARIANTS:
            values = [d["variants"][variant]["conll"] for d in system["datasets"]]
            assert system["macro"][variant] == pytest.approx(sum(values) / len(values), abs=1e-15)
    assert len({v for v, _ in seen}) == 4 and len(seen) > 8, "the made data must tell the variants apart"
    macros = {s["name"]: s["macro"]["head"] for s in report["systems"]}
    assert report["ranking"] == sorted(macros, key=lambda n: -macros[n])


def test_variant_settings_are_corefud_scorers_options():
    assert variant_settings("with_singletons") == Settings("head", True, "dependency")
    assert variant_settings("exact", "linear") == Settings("exact", False, "linear")
    with pytest.raises(ValueError):
        variant_settings("fuzzy")


def test_text_marks_the_best_and_the_significant(run_folders, capsys):
    root, systems = run_folders
    status, out, _ = _run(capsys, str(root / "key"), systems[0], systems[1], "--variant", "head", "--no-cache")
    assert status == 0
    table = out.split("\n\n")[1].splitlines()
    assert table[0].startswith("CoNLL F1 (%), head match, singletons removed")
    assert table[1].split() == ["system", "aa_one", "bb_two", "cc_three", "macro"]
    assert len(table) == 4 and "partial" not in out
    # the less noisy system wins the datasets of several documents and the macro-average; on 6
    # documents the difference is significant
    assert all(table[2].split()[column].endswith("^") for column in (1, 2, 4))
    assert table[3].split()[1].endswith("*") and not table[3].split()[3].endswith("*"), "one document: no test"
    assert "paired bootstrap" in out and "1. sys0" in out


def test_datasets_too_small_for_their_test_are_named_on_stderr(run_folders, capsys):
    root, systems = run_folders
    status, _, err = _run(capsys, str(root / "key"), *systems, "--variant", "head", "--no-cache")
    assert status == 0
    assert "dataset aa_one: 6 documents: its test resamples documents, and so few say little" in err
    assert "dataset bb_two: 3 documents" in err
    assert "dataset cc_three: 1 document: no p-value, and the macro-average's test holds its difference fixed" in err
    status, _, err = _run(capsys, str(root / "key"), *systems, "--variant", "head", "--no-cache", "--bootstrap", "0")
    assert status == 0 and "dataset" not in err  # no test, nothing to warn of


def test_a_system_against_itself_differs_nowhere(run_folders, capsys):
    root, systems = run_folders
    status, out, _ = _run(capsys, str(root / "key"), systems[0], systems[0], "--format", "json", "--no-cache",
                          "--name", "A,B")
    report = json.loads(out)
    b = report["systems"][1]
    assert b["macro_p_values"]["head"] == 1.0
    assert [d["p_values"]["head"] for d in b["datasets"]] == [1.0, 1.0, None]
    assert report["significance"]["seed"] == 12345 and report["significance"]["baseline"] == "A"


def test_the_same_seed_gives_the_same_output(run_folders, capsys):
    root, systems = run_folders
    outs = [_run(capsys, str(root / "key"), *systems, "--format", "json", "--no-cache", "--seed", "3", "--jobs", j)[1]
            for j in ("1", "3")]
    assert outs[0] == outs[1]


def test_formats_latex_markdown_csv(run_folders, capsys):
    root, systems = run_folders
    _, latex, _ = _run(capsys, str(root / "key"), *systems, "--format", "latex", "--variant", "exact", "--no-cache")
    assert r"\toprule" in latex and r"\bottomrule" in latex and r"aa\_one" in latex and r"\textbf{" in latex
    assert latex.count(r"\begin{tabular}") == 1
    _, md, _ = _run(capsys, str(root / "key"), *systems, "--format", "markdown", "--no-cache")
    assert md.count("| system |") == 4 and "**" in md
    _, csv, _ = _run(capsys, str(root / "key"), *systems, "--format", "csv", "--no-cache", "--bootstrap", "0")
    rows = csv.strip().splitlines()
    assert rows[0].startswith("system,dataset,variant,missing,conll,muc_recall")
    assert len(rows) == 1 + 2 * 4 * (3 + 1)


def test_a_missing_dataset_is_an_error_unless_allowed(run_folders, tmp_path, capsys):
    root, systems = run_folders
    partial = tmp_path / "partial"
    partial.mkdir()
    for f in Path(systems[0]).iterdir():
        if not f.name.startswith("bb_"):
            (partial / f.name).write_bytes(f.read_bytes())
    status, _, err = _run(capsys, str(root / "key"), systems[0], str(partial))
    assert status == 1 and err.count("\n") == 1 and "partial" in err and "bb_two" in err and "--allow-missing" in err
    status, out, err = _run(capsys, str(root / "key"), systems[0], str(partial), "--allow-missing", "--format", "json")
    assert status == 0 and "counted as 0" in err
    second = json.loads(out)["systems"][1]
    missing = [d for d in second["datasets"] if d.get("missing")]
    assert [d["name"] for d in missing] == ["bb_two"] and missing[0]["variants"]["head"]["conll"] == 0.0
    first = json.loads(out)["systems"][0]
    assert second["macro"]["head"] == pytest.approx(
        (first["datasets"][0]["variants"]["head"]["conll"] + first["datasets"][2]["variants"]["head"]["conll"]) / 3)


def test_bad_input_is_one_line_naming_file_and_line(run_folders, tmp_path, capsys):
    root, systems = run_folders
    broken = tmp_path / "broken"
    broken.mkdir()
    for f in Path(systems[0]).iterdir():
        (broken / f.name).write_bytes(f.read_bytes())
    target = broken / "bb_two-corefud-dev.conllu"
    lines = target.read_text().splitlines()
    lines[5] = lines[5].replace("\t", " ", 2)
    target.write_text("\n".join(lines) + "\n")
    status, out, err = _run(capsys, str(root / "key"), str(broken))
    assert status == 1 and out == "" and err.count("\n") == 1 and f"{target}:6:" in err
    status, _, err = _run(capsys, str(root / "key" / "aa_one-corefud-dev.conllu"), systems[0])
    assert status == 1 and "must be a folder" in err


def test_gzipped_keys_and_the_cache_read_no_key_twice(tmp_path, monkeypatch, capsys):
    systems = make_run(tmp_path, {"dd_four": 2}, noises=(0.4,))
    plain = tmp_path / "key" / "dd_four-corefud-dev.conllu"
    (tmp_path / "key" / (plain.name + ".gz")).write_bytes(gzip.compress(plain.read_bytes()))
    plain.unlink()
    monkeypatch.setenv("COREFWB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("COREFWB_NO_CACHE", raising=False)
    import metrics.formats.readers as readers

    calls = []
    original = readers.read_corefud
    monkeypatch.setattr(readers, "read_corefud", lambda path, warnings=None: calls.append(path) or original(path, warnings))
    outs = [_run(capsys, str(tmp_path / "key"), *systems, "--format", "json", "--jobs", "1")[1] for _ in range(2)]
    assert outs[0] == outs[1] and len(calls) == 1


def test_an_output_the_command_would_read_as_a_dataset_is_refused(run_folders, tmp_path, capsys, monkeypatch):
    """`--output KEY/x-corefud-dev.conllu` wrote the report among the keys, and the next run refused
    it as a broken dataset: refused before any work, a usage error naming why."""
    root, systems = run_folders
    monkeypatch.chdir(root)
    for output in ("key/x-corefud-dev.conllu", f"{systems[1]}/./r.conllu.gz", "./key/../key/r.conllu"):
        status, out, err = _run(capsys, "key/", *systems, "--bootstrap", "0", "--output", output)
        assert status == 2 and out == "" and err.count("\n") == 1 and "would read the report as a dataset" in err
        assert not Path(output).exists()
    for output in (tmp_path / "r.conllu", root / "key" / "report.txt", root / "key" / ".hidden.conllu"):
        assert _run(capsys, "key", *systems, "--bootstrap", "0", "--output", str(output))[0] == 0
        assert output.exists()
        output.unlink()
