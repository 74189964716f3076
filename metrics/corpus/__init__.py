"""Scoring a corpus: `scoring.prepare` pairs and aligns documents once and scores them under any
weights (`DocPair`, `PreparedCorpus`, `CorpusResult`); `stream` scores a CoNLL-2012 corpus in
byte ranges across processes (`--jobs`).

Layer 3: imports every layer below it (`model`, `runtime`, `mentions`, `formats`, `measures`)."""
