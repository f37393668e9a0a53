// Baton's OpenCode plug-in, written by `baton install --opencode`; `baton uninstall --opencode` removes it.
// OpenCode runs no hook process: this plug-in, inside the OpenCode process, hands each edit tool call (edit, write,
// apply_patch) and shell tool call (bash) to the Baton sidecar before and after it runs, and the end of each turn
// (the session.idle event). The sidecar decides (POST /v1/hooks?agent=opencode&event=…, the same route the hook
// script baton-hook uses); this file only carries the call there and the answer back:
//   {"deny": REASON}   the call is refused: thrown as the tool's error, which the model reads;
//   {"args": ARGS}     the call runs with these arguments (a shell command run through Baton's wrapper, which
//                      makes the files other sessions hold read-only for it);
//   {"context": TEXT}  added to the tool's output once it ran.
// The sidecar knows the caller from the kernel's view of the connection: this process, OpenCode's, is the agent.
//
// Environment, as for baton-hook:
//   CLAUDE_FILE_LOCK=0 or BATON=off  Baton is off for this OpenCode: nothing is checked or wrapped.
//   BATON_HOME                       where the sidecar's endpoint and token files are
//                                    (default ${XDG_STATE_HOME:-$HOME/.local/state}/baton).
//   BATON_FAIL_OPEN=1                when Baton cannot check an edit (sidecar down, request refused), let it through.
//   BATON_BIN                        the baton command that starts a sidecar that is not running (default: `baton`
//                                    beside the hook script, where `baton install` puts one).
//   BATON_HOOK_TIMEOUT               seconds one call may take when the sidecar runs, default 6.
//   BATON_HOOK_START_TIMEOUT         seconds it may take when the sidecar is being started for it, default 20.
// The token goes only to this BATON_HOME's own sidecar: sidecar.pid names a live process of this user, and that
// process holds a socket of this user listening on 127.0.0.1 at the endpoint's port (/proc/net/tcp6, tcp and
// /proc/PID/fd). A call Baton cannot make blocks an edit or a shell command, with the reason.
import { existsSync, readFileSync, readdirSync, readlinkSync, statSync } from "node:fs"
import { spawn } from "node:child_process"
import { dirname, join } from "node:path"
import { homedir } from "node:os"

/** The installed hook script: the wrapper a rewritten shell command runs through, and the launcher beside it. */
const HOOK_SCRIPT = "@BATON_HOOK_SCRIPT@"

/** The tools the sidecar is asked about: OpenCode 1.18's edit tools and its shell tool. */
const CHECKED_TOOLS = new Set(["edit", "write", "apply_patch", "patch", "multiedit", "bash"])

export const BatonPlugin = async ({ directory }) => {
  const env = process.env
  if (env.CLAUDE_FILE_LOCK === "0" || env.BATON === "off") {
    return {}
  }
  const home = env.BATON_HOME || join(env.XDG_STATE_HOME || join(homedir(), ".local/state"), "baton")
  const budget = seconds(env.BATON_HOOK_TIMEOUT, 6)
  const startBudget = Math.max(budget, seconds(env.BATON_HOOK_START_TIMEOUT, 20))
  const failOpen = env.BATON_FAIL_OPEN === "1"
  const contexts = new Map() // callID -> what the sidecar had to say before the call, told after it
  let verified = "" // "PID START PORT" of the sidecar last found to be this home's own

  const readLine = (file) => {
    try {
      return readFileSync(file, "utf8").split("\n")[0].trim()
    } catch {
      return ""
    }
  }

  /** True when sidecar.pid is a live process of this user holding a socket of this user that listens on the port. */
  const sidecarIsOurs = (port) => {
    if (!existsSync("/proc/net/tcp")) {
      return true // not Linux: the check cannot be made
    }
    const pid = readLine(join(home, "sidecar.pid"))
    const uid = process.getuid()
    if (!/^[0-9]+$/.test(pid)) return false
    let stat
    try {
      if (statSync(`/proc/${pid}`).uid !== uid) return false
      stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    } catch {
      return false
    }
    const fact = `${pid} ${stat.slice(stat.lastIndexOf(") ") + 2).split(" ")[19]} ${port}`
    if (fact === verified) return true
    const hex = port.toString(16).toUpperCase().padStart(4, "0")
    const listening = new Set()
    for (const table of ["/proc/net/tcp6", "/proc/net/tcp"]) {
      let text
      try {
        text = readFileSync(table, "utf8")
      } catch {
        continue
      }
      for (const line of text.split("\n")) {
        // sl, local address, remote address, state (0A: LISTEN), queues, timer, retransmits, uid, timeout, inode
        const f = line.trim().split(/\s+/)
        if (f.length > 9 && f[3] === "0A" && Number(f[7]) === uid
            && (f[1] === `0100007F:${hex}` || f[1] === `0000000000000000FFFF00000100007F:${hex}`)) {
          listening.add(f[9])
        }
      }
    }
    if (listening.size === 0) return false
    let fds
    try {
      fds = readdirSync(`/proc/${pid}/fd`)
    } catch {
      return false
    }
    for (const fd of fds) {
      try {
        const socket = /^socket:\[([0-9]+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))
        if (socket && listening.has(socket[1])) {
          verified = fact
          return true
        }
      } catch {
        // a descriptor closed meanwhile
      }
    }
    return false
  }

  /** This home's own sidecar: its port and token, or null when none runs. */
  const findSidecar = () => {
    const endpoint = readLine(join(home, "endpoint"))
    const match = /^127\.0\.0\.1:([0-9]+)$/.exec(endpoint)
    if (!match) return null
    const port = Number(match[1])
    if (!sidecarIsOurs(port)) return null
    const token = readLine(join(home, "token"))
    return token ? { port, token } : null
  }

  /**
   * Starts a sidecar: through the service manager's socket where `baton service install` made one (a health request,
   * which needs no token, starts it), else `baton serve` detached from OpenCode, as the hook script does.
   */
  const startSidecar = async () => {
    const service = /^127\.0\.0\.1:([0-9]+)$/.exec(readLine(join(home, "service-socket")))
    if (service) {
      try {
        await fetch(`http://127.0.0.1:${service[1]}/v1/health`, { signal: AbortSignal.timeout(budget * 1000) })
        return true
      } catch {
        // nothing listens there: start one below
      }
    }
    let bin = env.BATON_BIN
    if (!bin) {
      const beside = join(dirname(HOOK_SCRIPT), "baton")
      if (existsSync(beside)) bin = beside
    }
    if (!bin || !existsSync(bin)) return false
    // A subshell that exits at once: the sidecar's parent is init, so OpenCode's exit takes nothing with it.
    const start = 'mkdir -p -m 700 "$BATON_HOME" || exit 1; log=$BATON_HOME/sidecar.log\n'
      + 'if command -v setsid >/dev/null; then (setsid "$0" serve </dev/null >>"$log" 2>&1 &)\n'
      + 'else (nohup "$0" serve </dev/null >>"$log" 2>&1 &); fi'
    const child = spawn("/bin/sh", ["-c", start, bin],
      { env: { ...env, BATON_HOME: home }, stdio: "ignore" })
    await new Promise((resolve) => child.on("exit", resolve).on("error", resolve))
    return true
  }

  /**
   * One exchange with the sidecar: {status, body}; {refused: true} when nothing listens (a sidecar that exited), or
   * null when the answer did not come within the deadline.
   */
  const exchange = async (sidecar, event, payload, deadline) => {
    const query = `agent=opencode&event=${encodeURIComponent(event)}&pid=${process.pid}`
      + (HOOK_SCRIPT.startsWith("/") ? `&script=${encodeURIComponent(HOOK_SCRIPT)}` : "")
    try {
      const response = await fetch(`http://127.0.0.1:${sidecar.port}/v1/hooks?${query}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${sidecar.token}`, "Content-Type": "application/json" },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
      })
      return { status: response.status, body: await response.text() }
    } catch (e) {
      return e && (e.name === "TimeoutError" || e.name === "AbortError") ? null : { refused: true }
    }
  }

  /** Asks the sidecar, starting one when none runs; the sidecar's answer, or why none came. */
  const ask = async (event, payload) => {
    const started = Date.now()
    let deadline = started + budget * 1000
    let sidecar = findSidecar()
    let answer = sidecar ? await exchange(sidecar, event, payload, deadline) : { refused: true }
    if (answer && answer.refused) {
      // Starting a JVM takes longer than answering: from here on the start budget bounds the wait.
      deadline = started + startBudget * 1000
      answer = null
      if (await startSidecar()) {
        while (!answer && Date.now() < deadline - 100) {
          await new Promise((resolve) => setTimeout(resolve, 100))
          sidecar = findSidecar()
          answer = sidecar ? await exchange(sidecar, event, payload, deadline) : null
          if (answer && answer.refused) answer = null
        }
      }
    }
    if (!answer) {
      return { why: sidecar ? `the sidecar of ${home} did not answer in time`
          : `no sidecar of ${home} runs and none could be started (${startBudget} s); start one with \`baton serve\``
            + ` and read ${join(home, "sidecar.log")}` }
    }
    if (answer.status !== 200) {
      let message = answer.body
      try {
        message = JSON.parse(answer.body).error.message
      } catch {
        // not Baton's error shape: shown as it came
      }
      return { why: `the sidecar refused the call (${answer.status}): ${message}` }
    }
    try {
      return answer.body.trim() ? JSON.parse(answer.body) : {}
    } catch {
      return { why: `the sidecar's answer is not JSON: ${answer.body.slice(0, 200)}` }
    }
  }

  const payload = (event, sessionID, extra) => ({ hook_event_name: event, session_id: sessionID, cwd: directory, ...extra })

  return {
    "tool.execute.before": async (input, output) => {
      if (!CHECKED_TOOLS.has(input.tool)) return
      const answer = await ask("tool.execute.before", payload("tool.execute.before", input.sessionID,
        { tool_name: input.tool, tool_input: output.args, tool_use_id: input.callID }))
      if (answer.why) {
        if (failOpen) return
        throw new Error(`Baton could not check this ${input.tool} call, so it is blocked: ${answer.why}.`
          + " Set BATON_FAIL_OPEN=1 in OpenCode's environment to let calls through while Baton is down.")
      }
      if (answer.deny) throw new Error(answer.deny)
      if (answer.args) {
        for (const key of Object.keys(output.args)) delete output.args[key]
        Object.assign(output.args, answer.args)
      }
      if (answer.context) contexts.set(input.callID, answer.context)
    },
    "tool.execute.after": async (input, output) => {
      if (!CHECKED_TOOLS.has(input.tool)) return
      const told = [contexts.get(input.callID)]
      contexts.delete(input.callID)
      const answer = await ask("tool.execute.after", payload("tool.execute.after", input.sessionID,
        { tool_name: input.tool, tool_input: input.args, tool_use_id: input.callID }))
      told.push(answer.context)
      const text = told.filter(Boolean).join("\n")
      if (text && output && typeof output.output === "string") output.output += `\n\n${text}`
    },
    event: async ({ event }) => {
      if (event.type === "session.idle") {
        await ask("session.idle", payload("session.idle", event.properties.sessionID, {}))
      } else if (event.type === "session.deleted") {
        const sessionID = event.properties.sessionID || (event.properties.info && event.properties.info.id)
        if (sessionID) await ask("session.deleted", payload("session.deleted", sessionID, {}))
      }
    },
  }
}

function seconds(text, otherwise) {
  return /^[0-9]{1,3}$/.test(text || "") ? Number(text) : otherwise
}
