// Stands in for OpenCode in the tests: loads a plug-in file as OpenCode does (its named export called with the
// instance's directory) and calls its hooks as OpenCode 1.18 calls them, one JSON line in, one JSON line out:
//   {"before": TOOL, "session": ID, "call": ID, "args": {...}}  -> {"args": {...}} or {"error": MESSAGE}
//   {"after": TOOL, "session": ID, "call": ID, "args": {...}, "output": TEXT}  -> {"output": TEXT}
//   {"event": TYPE, "properties": {...}}  -> {}
//   {"run": COMMAND}  -> {"exit": N, "stdout": TEXT, "stderr": TEXT}, run as OpenCode's bash tool runs a command
// Its first line is {"ready": PID, "hooks": [NAMES]}.
import { spawnSync } from "node:child_process"
import { createInterface } from "node:readline"
import { pathToFileURL } from "node:url"

const [plugin, directory] = process.argv.slice(2)
const module = await import(pathToFileURL(plugin).href)
const hooks = await Object.values(module)[0]({ directory, worktree: directory })
const say = (line) => process.stdout.write(JSON.stringify(line) + "\n")
say({ ready: process.pid, hooks: Object.keys(hooks) })
for await (const line of createInterface({ input: process.stdin })) {
  const ask = JSON.parse(line)
  try {
    if (ask.before) {
      const output = { args: ask.args }
      if (hooks["tool.execute.before"]) {
        await hooks["tool.execute.before"]({ tool: ask.before, sessionID: ask.session, callID: ask.call }, output)
      }
      say({ args: output.args })
    } else if (ask.after) {
      const output = { title: "", output: ask.output, metadata: {} }
      if (hooks["tool.execute.after"]) {
        await hooks["tool.execute.after"]({ tool: ask.after, sessionID: ask.session, callID: ask.call, args: ask.args }, output)
      }
      say({ output: output.output })
    } else if (ask.event) {
      if (hooks.event) await hooks.event({ event: { type: ask.event, properties: ask.properties } })
      say({})
    } else if (ask.run) {
      const run = spawnSync("/bin/bash", ["-c", ask.run], { cwd: directory, encoding: "utf8" })
      say({ exit: run.status, stdout: run.stdout, stderr: run.stderr })
    }
  } catch (e) {
    say({ error: e.message })
  }
}
