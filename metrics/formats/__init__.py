"""File formats: CoNLL-2012, CorefUD CoNLL-U and jsonlines readers, format detection, the
streaming CoNLL-2012 reader behind `--jobs`, and the writers.  Each turns bytes into `Document`s
(or back) and knows nothing of metrics."""
