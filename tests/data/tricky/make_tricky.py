"""Write the small hand-made CoNLL-2012 key/response pairs of tests/data/tricky/ (this folder).

Run: python3 tests/data/tricky/make_tricky.py   (rewrites the files beside it; deterministic)

Each case is a key file and a response file with the same tokens; only the last (coreference)
column differs.  Tokens are written as 12 TAB-separated columns like the OntoNotes files.
"""
import os
import sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))

# A small text reused by most cases: (word, POS).  Token numbers (0-based over the document):
TEXT = [
    [("Mary", "NNP"), ("Smith", "NNP"), ("met", "VBD"), ("her", "PRP$"), ("brother", "NN"),
     ("in", "IN"), ("Paris", "NNP"), (".", ".")],                                   # 0-7
    [("She", "PRP"), ("told", "VBD"), ("him", "PRP"), ("that", "IN"), ("the", "DT"),
     ("city", "NN"), ("was", "VBD"), ("lovely", "JJ"), (".", ".")],                   # 8-16
    [("He", "PRP"), ("agreed", "VBD"), ("with", "IN"), ("his", "PRP$"), ("sister", "NN"),
     (".", ".")],                                                                     # 17-22
]
N_TOKENS = sum(len(s) for s in TEXT)


def cells(spec: dict[int, str]) -> list[str]:
    """Coreference cells for every token from {token: cell}; '-' elsewhere."""
    return [spec.get(i, "-") for i in range(N_TOKENS)]


def document(name: str, coref: list[str], text=TEXT, eol: str = "\n") -> str:
    doc_id = name.split(";")[0].strip("()") if name.startswith("(") else name.split()[0]
    out = [f"#begin document {name}{eol}"]
    t = 0
    for sentence in text:
        for i, (word, pos) in enumerate(sentence):
            cols = [doc_id, "0", str(i), word, pos, "*", "-", "-", "-", "-", "*", coref[t]]
            out.append("\t".join(cols) + eol)
            t += 1
        out.append(eol)
    out.append(f"#end document{eol}")
    return "".join(out)


# The key most cases share: three chains, nested mentions ('her' 3 inside 'her brother' 3-4, 'his' 20
# inside 'his sister' 20-21) in different chains.
KEY = {
    0: "(1", 1: "1)", 3: "(2|(1)", 4: "2)", 6: "(3)", 8: "(1)", 10: "(2)",
    12: "(3", 13: "3)", 17: "(2)", 20: "(2)|(1", 21: "1)",
}
# chain 1 = {Mary Smith 0-1, her 3, She 8, his sister 20-21}, chain 2 = {her brother 3-4, him 10,
# He 17, his 20}, chain 3 = {Paris 6, the city 12-13}

CASES: dict[str, tuple[str, dict, dict]] = {}


def case(name: str, about: str, key: dict, response: dict) -> None:
    CASES[name] = (about, key, response)


case("perfect", "response equals the key", KEY, KEY)

case("key_dup_two_chains",
     "key: span 12-13 ('the city') in chains 3 and 4; v8.01 prints 'Repeated mention in the key' and "
     "keeps the later ID",
     {**KEY, 12: "(3|(4", 13: "3)|4)", 14: "(4)"},
     {**KEY, 14: "(3)"})

case("key_dup_same_chain",
     "key: span 6 ('Paris') twice in chain 3",
     {**KEY, 6: "(3)|(3)"},
     KEY)

case("resp_dup_keymatch_two_chains",
     "response: key-matching span 10 ('him') in chains 2 and 5; the copy in the chain seen first (2) "
     "is kept, the other removed",
     KEY,
     {**KEY, 10: "(2)|(5)", 16: "(5)"})

case("resp_dup_keymatch_same_chain",
     "response: key-matching span 17 ('He') twice in chain 2, and multi-token 0-1 twice in chain 1",
     KEY,
     {**KEY, 17: "(2)|(2)", 0: "(1|(1", 1: "1)|1)"})

case("resp_dup_label_order",
     "response: token 0 has '(7|(6)': label 6 (one-token, processed first) is indexed before label 7 "
     "although '(7' comes first in the cell; key-matching span 3 is in chains 6 and 7, so chain 6 keeps it",
     KEY,
     {0: "(7|(6)", 1: "7)", 3: "(7)|(6)", 8: "(7)", 10: "(6)", 17: "(6)"})

case("resp_dup_twinless_two_chains",
     "response: twinless span 15 ('lovely') in chains 1 and 2; v8.01 keeps both copies (same ID)",
     KEY,
     {**KEY, 15: "(1)|(2)"})

case("resp_dup_twinless_same_chain",
     "response: twinless span 15 twice in chain 3; v8.01 keeps both copies",
     KEY,
     {**KEY, 15: "(3)|(3)"})

case("resp_chain_emptied",
     "response: chain 9 holds only span 6, already in chain 3 (seen first): after duplicate removal "
     "chain 9 is empty and dropped",
     KEY,
     {**KEY, 6: "(3)|(9)"})

case("resp_chain_emptied_first",
     "response: chain 9 is seen first and holds spans 6 and 12-13; chain 3 later repeats them and is "
     "emptied",
     KEY,
     {6: "(9)|(3)", 12: "(9|(3", 13: "9)|3)", 0: "(1", 1: "1)", 3: "(2|(1)", 4: "2)", 8: "(1)",
      10: "(2)", 17: "(2)", 20: "(2)|(1", 21: "1)"})

case("nested_same_label",
     "nested mentions of one chain: token 0 opens label 1 twice ('(1|(1'), the first close ends the most "
     "recent, so chain 1 holds 0-1 and 3 inside 0-4; the response nests 0-1 inside 0-4 too",
     {0: "(1|(1", 1: "1)", 3: "(1)", 4: "1)", 8: "(1)", 10: "(2)", 17: "(2)"},
     {0: "(1|(1", 1: "1)", 4: "1)", 8: "(1)", 3: "(2)", 10: "(2)", 17: "(1)"})

case("all_singleton_key",
     "key: every mention a singleton (MUC 0/0); response links some of them",
     {0: "(1", 1: "1)", 3: "(2)", 6: "(3)", 8: "(4)", 10: "(5)", 17: "(6)"},
     {0: "(1", 1: "1)", 3: "(1)", 6: "(3)", 8: "(1)", 10: "(5)", 17: "(5)"})

case("all_singleton_key_perfect",
     "key: every mention a singleton; response identical (MUC 0/0 even though perfect)",
     {0: "(1", 1: "1)", 3: "(2)", 6: "(3)", 8: "(4)"},
     {0: "(1", 1: "1)", 3: "(2)", 6: "(3)", 8: "(4)"})

case("key_single_chain",
     "key: one chain only, no non-coreference links (BLANC = coreference part alone)",
     {0: "(1", 1: "1)", 3: "(1)", 8: "(1)"},
     {0: "(1", 1: "1)", 3: "(2)", 8: "(1)"})

case("empty_response",
     "response document with no mentions",
     KEY,
     {})

case("empty_key",
     "key document with no mentions; response has some",
     {},
     {0: "(1", 1: "1)", 8: "(1)", 6: "(2)"})

case("empty_both",
     "neither side has a mention",
     {},
     {})

case("response_only_twinless",
     "every response mention is twinless (matches no key span)",
     KEY,
     {2: "(1)", 5: "(1)", 7: "(2)", 9: "(2)", 11: "(3)", 15: "(4)"})

case("partial_spans",
     "response spans overlap key spans without matching exactly (1 for 0-1, 4 for 3-4, 12 for 12-13)",
     KEY,
     {1: "(1)", 3: "(1)", 8: "(1)", 4: "(2)", 10: "(2)", 17: "(2)", 6: "(3)", 12: "(3)"})

case("split_antecedent",
     "a split-antecedent item '(1+2)' in both files is ignored",
     {**KEY, 14: "(1+2)"},
     {**KEY, 14: "(1+2)", 10: "(1)"})

case("cross_sentence",
     "mentions that cross a sentence break (tokens 6-9 and 15-18)",
     {0: "(1", 1: "1)", 6: "(2", 9: "2)", 15: "(2", 18: "2)", 8: "(1)"},
     {0: "(1", 1: "1)", 6: "(2", 9: "2)", 15: "(1", 18: "1)", 8: "(2)"})

case("same_token_open_close",
     "one cell opening and closing several mentions: '(1|(2)' and '1)|(3)'",
     {0: "(1|(2)", 1: "1)|(3)", 8: "(1)", 10: "(2)", 17: "(3)"},
     {0: "(1|(2)", 1: "1)|(3)", 8: "(3)", 10: "(2)", 17: "(1)"})

case("string_labels_leading_zero",
     "labels '01' and '1' are different chains in key and response",
     {0: "(01", 1: "01)", 3: "(1)", 8: "(01)", 10: "(1)"},
     {0: "(1", 1: "1)", 3: "(01)", 8: "(1)", 10: "(01)"})


def write_case(name: str, about: str, key: dict, response: dict) -> None:
    docname = f"(tricky_{name}); part 000"
    with open(os.path.join(OUT, f"{name}.key.conll"), "w", newline="") as fh:
        fh.write(document(docname, cells(key)))
    with open(os.path.join(OUT, f"{name}.response.conll"), "w", newline="") as fh:
        fh.write(document(docname, cells(response)))


def write_corpus() -> None:
    """A multi-document pair: a key document missing from the response, a response document missing
    from the key, a second part of one document, and CRLF line ends in one document."""
    parts_key = [
        document("(corpus_a); part 000", cells(KEY)),
        document("(corpus_a); part 001", cells({0: "(1", 1: "1)", 8: "(1)", 6: "(2)", 12: "(2", 13: "2)"})),
        document("(corpus_b); part 000", cells(KEY)),           # missing from the response
        document("(corpus_c); part 000", cells({**KEY, 15: "(5)"}), eol="\r\n"),
    ]
    parts_resp = [
        document("(corpus_c); part 000", cells({**KEY, 10: "(1)", 15: "(5)"}), eol="\r\n"),
        document("(corpus_a); part 001", cells({0: "(1", 1: "1)", 8: "(2)", 6: "(2)", 12: "(1", 13: "1)"})),
        document("(corpus_z); part 000", cells(KEY)),           # not in the key
        document("(corpus_a); part 000", cells({**KEY, 10: "(3)"})),
    ]
    with open(os.path.join(OUT, "corpus.key.conll"), "w", newline="") as fh:
        fh.write("".join(parts_key))
    with open(os.path.join(OUT, "corpus.response.conll"), "w", newline="") as fh:
        fh.write("".join(parts_resp))


def write_many_repeats() -> None:
    """Two documents with 6 repeated key-matching response mentions each: 12 in the file, so v8.01
    refuses the corpus run (> 10) but scores each document alone."""
    dup = {0: "(1|(5", 1: "1)|5)", 3: "(2|(1)|(5)", 4: "2)", 6: "(3)|(5)", 8: "(1)|(5)",
           10: "(2)|(5)", 12: "(3|(5", 13: "3)|5)", 17: "(2)", 20: "(2)|(1", 21: "1)"}
    key = [document(f"(repeats_{c}); part 000", cells(KEY)) for c in "ab"]
    resp = [document(f"(repeats_{c}); part 000", cells(dup)) for c in "ab"]
    with open(os.path.join(OUT, "many_repeats.key.conll"), "w", newline="") as fh:
        fh.write("".join(key))
    with open(os.path.join(OUT, "many_repeats.response.conll"), "w", newline="") as fh:
        fh.write("".join(resp))


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    for name, (about, key, response) in CASES.items():
        write_case(name, about, key, response)
    write_corpus()
    write_many_repeats()
    with open(os.path.join(OUT, "cases.tsv"), "w") as fh:
        fh.write("case\twhat it tests\n")
        for name, (about, _, _) in CASES.items():
            fh.write(f"{name}\t{about}\n")
        fh.write("corpus\tfour key documents (two parts of one document, one missing from the response, "
                 "one with CRLF line ends) and a response with an extra document not in the key, in another order\n")
        fh.write("many_repeats\ttwo documents with 6 repeated key-matching response mentions each: v8.01 "
                 "refuses the whole-file run (> 10 repeats), scores each document alone\n")
    print(len(CASES) + 2, "cases written to", OUT)
