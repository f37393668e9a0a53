package dev.baton.dashboard.view;

import dev.baton.dashboard.viewmodel.SupervisorActions;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** Asks the supervisor to confirm, then runs the action off the FX thread and shows its outcome. */
interface ActionRunner {

    void confirmThenRun(SupervisorActions.Confirmation confirmation,
                        Supplier<CompletableFuture<SupervisorActions.Outcome>> action);

    /** Shows something to read (a file's changes, its history) once the sidecar has answered. */
    void read(String heading, CompletableFuture<String> text);
}
