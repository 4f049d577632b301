import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    d_k = X.shape[1] // h
    outputs, maps = [], []
    for i in range(h):
        block = slice(i * d_k, (i + 1) * d_k)  # стовпці голови i
        # Q, K і V цієї голови, її мапа A (T, T) і її вихід A @ V
        ...
    # зшийте виходи по стовпцях, спроєктуйте через Wo і складіть мапи в один масив
    return output, A
