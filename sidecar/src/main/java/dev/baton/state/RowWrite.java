package dev.baton.state;

/** One row write of a commit: a row saved (inserted or replaced by key) or removed. */
public sealed interface RowWrite {

    RowKind<?, ?> kind();

    /** The row's column values in the kind's column order; for a removal the first of them are its key. */
    Object[] values();

    record Upsert<R>(RowKind<?, R> kind, R row) implements RowWrite {
        @Override
        public Object[] values() {
            return kind.values(row);
        }
    }

    record Delete<R>(RowKind<?, R> kind, R row) implements RowWrite {
        @Override
        public Object[] values() {
            return kind.values(row);
        }
    }
}
