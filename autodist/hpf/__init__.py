"""HPF directives: the model (:mod:`.model`), reading (:mod:`.parse`), meaning
(:mod:`.resolve`), writing (:mod:`.emit`, :mod:`.lines`) and splicing into the
original source text (:mod:`.splice`)."""
