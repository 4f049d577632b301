"""A small NumPy transformer toolkit with hand-written gradients, the same in CPython and the browser.

layers: Embedding, Linear, attention, MultiHeadAttention (with head ablation), LayerNorm, MLP,
        TransformerBlock, AttentionOnlyBlock, positional_encoding, cross_entropy; Layer.count, Layer.flatten
models: SequenceTransformer (digit sequences in, one prediction per position), AttentionOnlyTransformer
        (causal, next-token logits, per-head maps), SenseClassifier, causal_mask
optim:  SGD, Adam, Flat (any optimizer on one flat array of every parameter)
train:  train_sequences and train_steps (coroutines: `await` them; they stop between steps),
        train_classifier, accuracies, digit_sequences
gpt:    GPT (causal pre-norm character model), save/load (.npz, float32), windows, Batches (a permutation per
        epoch), mean_loss, GPTTraining (Adam in parts the page can stop), generate (any probabilities function)
"""
