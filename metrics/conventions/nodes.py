"""CorefUD's node mentions of a corpus aligned as corefud-scorer aligns them, under its settings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from metrics.conventions.options import COREFUD, Options
from metrics.mentions.corefud import AlignedDocument, ZeroWithoutDependencies, align, clusters
from metrics.mentions.pairing import unused_warning
from metrics.model import InputError, Node, NodeDocument


@dataclass(frozen=True)
class Settings:
    """corefud-scorer's options: `-a` match, `-s` keep singletons, `-z` zero match method."""

    match: str = "head"
    keep_singletons: bool = False
    zero_match: str = "dependency"

    @classmethod
    def of(cls, options: Options) -> Settings:
        return cls(options.match, options.keep_singletons, options.zero_match)

    def options(self, *, spans: bool = True) -> Options:
        """The road's options of these settings (CRAC's report: scores alone, without `spans`)."""
        return Options(conventions=COREFUD, match=self.match, keep_singletons=self.keep_singletons,
                       zero_match=self.zero_match, spans=spans)

    def fields(self) -> dict[str, str]:
        """The settings as every JSON output names them."""
        return {"conventions": COREFUD, "match": self.match,
                "singletons": "keep" if self.keep_singletons else "remove", "zero_match": self.zero_match}

    def describe(self) -> str:
        """The settings as every text output's header names them."""
        return (f"conventions corefud, {self.match} match, singletons "
                f"{'kept' if self.keep_singletons else 'removed'}, zeros aligned by "
                f"{'dependencies' if self.zero_match == 'dependency' else 'position'}")


Aligned = tuple[NodeDocument, NodeDocument, AlignedDocument]
"""A key document, its response twin, and the two aligned."""


def aligned_documents(keys: Sequence[NodeDocument], responses: Sequence[NodeDocument],
                      key_path: str, response_path: str, settings: Settings, *,
                      warnings: list[str] | None = None) -> list[Aligned]:
    """Each key document with its response twin, aligned; a missing twin or differing words is an
    input error naming the response file and line.  Response documents the key lacks are not
    scored (as corefud-scorer's), with a warning in `warnings`."""
    by_name = {d.name: d for d in responses}
    if warnings is not None:
        names = {key.name for key in keys}
        unused = [d for d in responses if d.name not in names]
        if unused:
            warnings.append(unused_warning(response_path, unused))
    out = []
    for key in keys:
        response = by_name.get(key.name)
        if response is None:
            raise InputError(response_path, None, f"no document {key.name!r} (the key {key_path} has it)")
        differ = key.forms != response.forms  # (word by word only where they differ: the first difference)
        for (node, form), (other, other_form) in (zip(key.forms, response.forms) if differ else ()):
            if node != other or form != other_form:
                what = f"word {other_form!r} where the key has {form!r}" if form != other_form else \
                    f"word {form!r} is {_place(other)} where the key's is {_place(node)}"
                raise InputError(response_path, response.line_of.get(other),
                                 f"{what} ({key_path}:{key.line_of.get(node)})")
        if len(key.forms) != len(response.forms):
            raise _length_error(key, response, key_path, response_path)
        try:
            out.append((key, response, align(key.name, clusters(key, settings.match, settings.keep_singletons),
                                             clusters(response, settings.match, settings.keep_singletons),
                                             settings.match, settings.zero_match)))
        except ZeroWithoutDependencies as error:
            path, doc = (key_path, key) if error.side == "key" else (response_path, response)
            raise InputError(path, doc.line_of.get(error.node),
                             "a zero without enhanced dependencies (DEPS is _) cannot be aligned by them: "
                             "give DEPS, or align zeros by position (--zero-match linear)") from None
    return out


def _length_error(key: NodeDocument, response: NodeDocument, key_path: str, response_path: str) -> InputError:
    """Words that agree as far as the shorter side goes, then one side ends: named at the
    response's first extra word, or at its last word where it ends early, with the key's line
    beside it (a document truncated at a sentence's end reads as a shorter document)."""
    common = min(len(key.forms), len(response.forms))
    at, key_at = ((response.forms[common][0], key.forms[-1][0] if key.forms else None) if len(response.forms) > common
                  else (response.forms[-1][0] if response.forms else None, key.forms[common][0]))
    return InputError(response_path, response.line_of.get(at),
                      f"document {key.name!r} has {len(response.forms)} words, the key's {len(key.forms)} "
                      f"({key_path}:{key.line_of.get(key_at)})")


def _place(node: Node) -> str:
    """A node as the file numbers it: its word ID (`5`, or `5.1` for an empty node) and its
    sentence's place in the document.  Why: the same word at another place (IDs renumbered, a
    sentence break lost) would otherwise read as "word 'On' where the key has 'On'"."""
    sentence, word, empty = node
    return f"word {word}{f'.{empty}' if empty else ''} of sentence {sentence}"
