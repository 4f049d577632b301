"""A small NumPy transformer toolkit with hand-written gradients, the same in CPython and the browser.

layers: Embedding, Linear, attention, MultiHeadAttention, LayerNorm, MLP, TransformerBlock,
        positional_encoding, cross_entropy
models: SequenceTransformer (digit sequences in, one prediction per position), SenseClassifier
optim:  SGD, Adam
train:  train_sequences (a coroutine: `await` it), accuracies, digit_sequences
"""
