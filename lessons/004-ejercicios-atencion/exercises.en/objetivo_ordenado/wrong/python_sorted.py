def sorted_target(X):
    return [sorted(row) for row in X]
