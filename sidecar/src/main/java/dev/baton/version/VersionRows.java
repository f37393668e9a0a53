package dev.baton.version;

import dev.baton.state.RowKind;
import java.util.List;

/** The version module's rows: each file's last kept version, by canonical path. */
public final class VersionRows {

    public static final RowKind<String, KeptVersion> KEPT = new KeptVersionColumns();
    /** Every kind this module owns, for the ledger to load. */
    public static final List<RowKind<?, ?>> KINDS = List.of(KEPT);

    private VersionRows() {
    }
}
