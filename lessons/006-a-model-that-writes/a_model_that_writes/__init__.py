"""The own code of the lesson 006-a-model-that-writes: the corpus, its vocabulary, the bigram baseline, the
shipped checkpoint and its recipe, the sampler (temperature, top-k, top-p), and the checkers of the lesson's two
exercises."""
