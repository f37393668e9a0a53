package dev.baton.hook;

import dev.baton.http.Callers;
import dev.baton.session.ConnectionPeer;
import dev.baton.session.ProcessIdentity;
import io.javalin.http.Context;
import java.util.Optional;

/**
 * The hook script behind a hook call, as the kernel reports it: the process holding the connection and its
 * parent, where the walk up to the agent starts. The {@code pid} and {@code ppid} the script sends are only hints
 * for where to look (the connection's own process saves a scan of every process); where the kernel cannot name the
 * connection's process (not Linux), the ppid is taken as sent. {@code ppid} is where the walk up to the agent starts.
 */
record HookCaller(long ppid, ConnectionPeer peer) {

    static HookCaller of(Context ctx, long claimedPid, long claimedPpid) {
        if (!Callers.kernelNamesPeers(ctx)) {
            ProcessIdentity claimed = claimedPpid > 0 ? ProcessIdentity.ofRunning(claimedPpid) : null;
            return new HookCaller(claimedPpid, hints -> Optional.ofNullable(claimed));
        }
        if (claimedPpid <= 0) {
            return new HookCaller(0, Callers.peer(ctx));
        }
        long parent = Callers.process(ctx, claimedPid, claimedPpid)
                .flatMap(script -> ProcessHandle.of(script.pid()).flatMap(ProcessHandle::parent))
                .map(ProcessHandle::pid)
                .orElse(0L);
        return new HookCaller(parent, Callers.peer(ctx));
    }

    /**
     * A plug-in that runs inside the agent (OpenCode's): the process the kernel names for the connection is the agent
     * itself, so the walk up starts there; {@code claimedPid} is only where to look first. Off Linux it is taken as
     * sent, as a script's ppid is.
     */
    static HookCaller inAgent(Context ctx, long claimedPid) {
        if (!Callers.kernelNamesPeers(ctx)) {
            ProcessIdentity claimed = claimedPid > 0 ? ProcessIdentity.ofRunning(claimedPid) : null;
            return new HookCaller(claimedPid, hints -> Optional.ofNullable(claimed));
        }
        long agent = Callers.process(ctx, claimedPid, 0).map(ProcessIdentity::pid).orElse(0L);
        return new HookCaller(agent, Callers.peer(ctx));
    }
}
