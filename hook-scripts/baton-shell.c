/*
 * baton-shell COMMAND | baton-shell [--login] -c COMMAND — the wrapper every shell command of an agent runs through:
 * COMMAND runs where the files other sessions hold are read-only. `mvn package` builds it (module hook-scripts) into
 * `baton-shell` beside this file, where the scripts find it.
 *   The first form is Claude Code's CLAUDE_CODE_SHELL_PREFIX (Claude Code starts the prefix, a program path alone,
 *   with the command line as its one argument): COMMAND runs in the shell Claude Code would have used. The second
 *   runs COMMAND with bash, as Copilot CLI and Gemini CLI are told to (their hooks rewrite the command) and as Codex
 *   CLI's bash does (BASH_ENV names baton-bash-env, which hands the command over).
 *
 * Asks the sidecar (POST /v1/shell/guard?pid=PID&ppid=PARENT&call=ID, HTTP/1.0, the directory and the command as
 * the body) which files to make read-only: the sidecar decides from the kernel's view of this process which agent
 * it runs for, and answers with the headers X-Baton-Guard (none, bind, unwrapped), X-Baton-Run (an id, or "-") and
 * X-Baton-Files (N), and a body of the N files, one per line, then Baton's words for the agent. With files to
 * protect, this process enters a user and mount namespace of its own, binds each file read-only over itself, locks
 * the binds behind a second pair of namespaces (umount and remount then fail for mounts a less privileged namespace
 * inherited) and drops every capability; then it runs the command as its child and waits. Writes, truncation,
 * removal, renames onto a bound file and hard links to it fail with "Read-only file system", "Device or resource
 * busy" or "Invalid cross-device link"; every other file stays writable. Another process's /proc/PID/root does not
 * lead around the binds: the kernel refuses a process in a child user namespace that view of processes outside it.
 * When the command fails while files were protected, Baton's words (which files, held by whom, what to do) follow
 * its output on stderr. With a run id, the end is reported (POST /v1/shell/ended?run=ID) and what the sidecar
 * answers is printed on stderr, for commands that go on after the agent's tool call returned. With nothing to
 * protect and nothing to report, the command takes this process's place.
 *
 * A sidecar that cannot be reached leaves the command to run as it is: the agent's hook has checked it already.
 * Where the namespaces cannot be made (user namespaces turned off, a sandbox that forbids them), the command runs
 * all the same, after one line on stderr saying so: Baton's checks before and after it still apply.
 * BATON_SHELL_GUARD marks the processes below a wrapper, where a nested wrapper (a bash started inside the command)
 * has nothing to add. Baton's own hooks and MCP server, which Claude Code also runs through its prefix, are started
 * at once.
 *
 * Environment: CLAUDE_FILE_LOCK=0 or BATON=off (the command runs as it is), BATON_HOME (as for baton-hook),
 * BATON_HOOK_TIMEOUT (seconds each exchange with the sidecar may take, default 6), BATON_NEXT_SHELL_PREFIX (the
 * prefix the user had before Baton's), CLAUDE_CODE_SHELL.
 *
 * Written in C, not as a script: it stands in front of every shell command an agent runs, and an interpreter's
 * start alone (Perl's, bash's) costs as much as the whole of this program. It uses libc only. Only baton-hook
 * writes $BATON_HOME/hook-listener; this program reads it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif

/* The most an answer of the sidecar may be, as for the hook. */
#define ANSWER_LIMIT (8 * 1024 * 1024)

/* A growing string: the request, the answer, the messages. */
typedef struct {
    char *text;
    size_t length, capacity;
} Text;

static void append(Text *text, const char *bytes, size_t length) {
    if (text->length + length + 1 > text->capacity) {
        size_t capacity = text->capacity ? text->capacity : 256;
        while (capacity < text->length + length + 1) {
            capacity *= 2;
        }
        char *grown = realloc(text->text, capacity);
        if (!grown) {
            fputs("baton-shell: out of memory\n", stderr);
            exit(127);
        }
        text->text = grown;
        text->capacity = capacity;
    }
    memcpy(text->text + text->length, bytes, length);
    text->length += length;
    text->text[text->length] = '\0';
}

static void appendf(Text *text, const char *format, ...) {
    va_list args;
    va_start(args, format);
    char *formatted = NULL;
    int length = vasprintf(&formatted, format, args);
    va_end(args);
    if (length < 0) {
        fputs("baton-shell: out of memory\n", stderr);
        exit(127);
    }
    append(text, formatted, (size_t) length);
    free(formatted);
}

/* --- The command, the shell it runs in, and the files to protect --- */

static char **shell;        /* the program and its arguments, NULL-terminated */
static char **files;        /* the files to make read-only */
static size_t file_count;
static char run[128] = "-"; /* the run whose end the sidecar wants reported, or "-" */
static Text note;           /* Baton's words for the agent after a failure */
static char home[4096];
static unsigned budget = 6;

static void run_as_is(void) {
    execvp(shell[0], shell);
    fprintf(stderr, "baton-shell: cannot run %s: %s\n", shell[0], strerror(errno));
    exit(127);
}

/* The first line of a file without its newline, "" when it cannot be read. */
static char *first_line(const char *path, char *line, size_t size) {
    line[0] = '\0';
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return line;
    }
    size_t got = 0;
    while (got < size - 1) {
        ssize_t n = read(fd, line + got, size - 1 - got);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        got += (size_t) n;
        if (memchr(line, '\n', got)) {
            break;
        }
    }
    close(fd);
    line[got] = '\0';
    line[strcspn(line, "\n")] = '\0';
    return line;
}

static int all_digits(const char *text) {
    if (!*text) {
        return 0;
    }
    for (; *text; text++) {
        if (!isdigit((unsigned char) *text)) {
            return 0;
        }
    }
    return 1;
}

static int ends_with(const char *text, const char *end) {
    size_t length = strlen(text), tail = strlen(end);
    return length >= tail && strcmp(text + length - tail, end) == 0;
}

/* The bash baton-hook runs in (#!/bin/bash), else the first on PATH. */
static char *bash(void) {
    if (access("/bin/bash", X_OK) == 0) {
        return "/bin/bash";
    }
    const char *path = getenv("PATH");
    if (path) {
        char *dirs = strdup(path), *saved = NULL;
        for (char *dir = strtok_r(dirs, ":", &saved); dir; dir = strtok_r(NULL, ":", &saved)) {
            char *candidate = NULL;
            struct stat about;
            if (asprintf(&candidate, "%s/bash", dir) > 0 && access(candidate, X_OK) == 0
                    && stat(candidate, &about) == 0 && !S_ISDIR(about.st_mode)) {
                return candidate;
            }
            free(candidate);
        }
    }
    return "bash";
}

static char **words(int count, ...) {
    char **list = calloc((size_t) count + 1, sizeof *list);
    va_list args;
    va_start(args, count);
    for (int i = 0; i < count; i++) {
        list[i] = va_arg(args, char *);
    }
    va_end(args);
    return list;
}

/*
 * Sets shell to how the command runs and returns the command line: with bash for `[--login] -c COMMAND`; for Claude
 * Code's prefix form (one argument), through the prefix the user had before Baton's (BATON_NEXT_SHELL_PREFIX), else
 * with /bin/sh for a hook (whose parent is the sh Claude Code runs hooks with), else with the shell Claude Code runs
 * commands in. Moves *argv past the arguments it took.
 */
static char *choose_shell(int *argc, char ***argv) {
    int login = *argc > 0 && strcmp((*argv)[0], "--login") == 0;
    if (login) {
        (*argc)--, (*argv)++;
    }
    if (*argc > 0 && strcmp((*argv)[0], "-c") == 0) {
        char *command = *argc > 1 ? (*argv)[1] : "";
        shell = login ? words(4, bash(), "-l", "-c", command) : words(3, bash(), "-c", command);
        return command;
    }
    char *command = *argc > 0 ? (*argv)[0] : "";
    const char *next = getenv("BATON_NEXT_SHELL_PREFIX");
    const char *claude_shell = getenv("CLAUDE_CODE_SHELL");
    const char *user_shell = getenv("SHELL");
    char comm[64], path[64];
    snprintf(path, sizeof path, "/proc/%d/comm", (int) getppid());
    if (next && *next) {
        /* Split at its last " -", as Claude Code splits a prefix. */
        char *prefix = strdup(next);
        char *last = strrchr(prefix, ' ');
        if (last && last[1] == '-' && !strchr(prefix, '\n')) {
            *last = '\0';
            shell = words(3, prefix, last + 1, command);
        } else {
            shell = words(2, prefix, command);
        }
    } else if (strcmp(first_line(path, comm, sizeof comm), "sh") == 0 || strcmp(comm, "dash") == 0) {
        shell = words(3, "/bin/sh", "-c", command);
    } else if (claude_shell && (ends_with(claude_shell, "/bash") || ends_with(claude_shell, "/zsh"))) {
        shell = words(3, (char *) claude_shell, "-c", command);
    } else if (user_shell && ends_with(user_shell, "/zsh")) {
        shell = words(3, (char *) user_shell, "-c", command);
    } else {
        shell = words(3, bash(), "-c", command);
    }
    return command;
}

/*
 * Baton's own hook or MCP server, run through Claude Code's prefix: no command of the agent's, nothing to guard.
 * baton-mcp alone (as installs name it), or baton-hook AGENT EVENT (hooks, and older installs' MCP server).
 */
static void start_own_program(const char *self, const char *command) {
    char dir[4096];
    const char *slash = strrchr(self, '/');
    if (slash) {
        snprintf(dir, sizeof dir, "%.*s", (int) (slash - self), self);
    } else {
        strcpy(dir, ".");
    }
    const char *names[] = {"baton-mcp", "baton-hook"};
    for (int which = 0; which < 2; which++) {
        char program[4200], quoted[4210];
        snprintf(program, sizeof program, "%s/%s", dir, names[which]);
        snprintf(quoted, sizeof quoted, "'%s'", program);
        const char *spellings[] = {program, quoted};
        for (int spelled = 0; spelled < 2; spelled++) {
            size_t length = strlen(spellings[spelled]);
            if (strncmp(command, spellings[spelled], length) != 0) {
                continue;
            }
            const char *rest = command + length;
            if (*rest == '\0' && which == 0) {
                execl(program, program, (char *) NULL);
            }
            /* " AGENT" or " AGENT EVENT": lower-case letters, then letters. */
            if (rest[0] != ' ') {
                continue;
            }
            const char *agent = rest + 1, *end = agent;
            while (*end >= 'a' && *end <= 'z') {
                end++;
            }
            if (end == agent) {
                continue;
            }
            char first[256], second[256];
            snprintf(first, sizeof first, "%.*s", (int) (end - agent), agent);
            if (*end == '\0') {
                execl(program, program, first, (char *) NULL);
            } else if (*end == ' ') {
                const char *event = end + 1, *stop = event;
                while (isalpha((unsigned char) *stop)) {
                    stop++;
                }
                if (stop > event && *stop == '\0' && stop - agent < 255) {
                    snprintf(second, sizeof second, "%s", event);
                    execl(program, program, first, second, (char *) NULL);
                }
            }
        }
    }
}

/* --- The sidecar --- */

/* True when the file or directory belongs to this process's effective user (Perl's -O). */
static int owned(const char *path) {
    struct stat about;
    return stat(path, &about) == 0 && about.st_uid == geteuid();
}

/*
 * True when sidecar.pid names a live process of this user and a socket of this user listens on 127.0.0.1:PORT, as
 * the kernel lists them in /proc/net/tcp and tcp6; baton-hook remembers a check that passed in hook-listener (the
 * sidecar's pid, its start, the port and the boot's id), and the same line for the same process skips the tables.
 * Off Linux (no /proc/net/tcp) the check cannot be made and passes.
 */
static int sidecar_is_ours(unsigned port) {
    if (access("/proc/net/tcp", R_OK) != 0) {
        return 1;
    }
    char path[4200], pid[64], stat[1024], boot[128], listener[512];
    snprintf(path, sizeof path, "%s/sidecar.pid", home);
    if (!all_digits(first_line(path, pid, sizeof pid))) {
        return 0;
    }
    snprintf(path, sizeof path, "/proc/%s", pid);
    if (!owned(path)) {
        return 0;
    }
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    first_line(path, stat, sizeof stat);
    /* The fields after the command name, which may hold spaces and parentheses (so after its last ") "): the 20th
     * of them is the start time. */
    char *after = NULL;
    for (char *found = strstr(stat, ") "); found; found = strstr(found + 1, ") ")) {
        after = found + 2;
    }
    char start[64] = "";
    if (after) {
        int field = 0;
        for (char *word = after; *word && field <= 19; field++) {
            size_t length = strcspn(word, " ");
            if (field == 19) {
                snprintf(start, sizeof start, "%.*s", (int) length, word);
            }
            word += length;
            if (*word) {
                word++;
            }
        }
    }
    first_line("/proc/sys/kernel/random/boot_id", boot, sizeof boot);
    snprintf(path, sizeof path, "%s/hook-listener", home);
    if (all_digits(start) && *boot && owned(path)) {
        char expected[512];
        snprintf(expected, sizeof expected, "%s %s %u %s", pid, start, port, boot);
        if (strcmp(first_line(path, listener, sizeof listener), expected) == 0) {
            return 1;
        }
    }
    char local[16];
    snprintf(local, sizeof local, "0100007F:%04X", port);
    const char *tables[] = {"/proc/net/tcp6", "/proc/net/tcp"};
    for (int table = 0; table < 2; table++) {
        FILE *in = fopen(tables[table], "re");
        if (!in) {
            continue;
        }
        char line[512];
        while (fgets(line, sizeof line, in)) {
            /* Local 127.0.0.1:PORT (IPv4, or mapped into IPv6), any remote address on port 0, state 0A (LISTEN), the uid. */
            char here[64], there[64];
            unsigned state, uid;
            if (sscanf(line, " %*s %63s %63s %x %*s %*s %*s %u", here, there, &state, &uid) == 4
                    && ends_with(here, local) && ends_with(there, ":0000") && state == 0x0A && uid == geteuid()) {
                fclose(in);
                return 1;
            }
        }
        fclose(in);
    }
    return 0;
}

static void on_alarm(int signal) {
    (void) signal; /* only interrupts the exchange's system call */
}

/* An answer of the sidecar: the status, the header in lower case, the body. */
typedef struct {
    int status;
    Text head, body;
} Answer;

/*
 * One HTTP/1.0 exchange with the sidecar, bounded by BATON_HOOK_TIMEOUT from its start: 1 with the answer, or 0 when
 * there is no sidecar to talk to or it did not answer in time.
 */
static int exchange(const char *target, const char *body, size_t body_length, Answer *answer) {
    char path[4200], endpoint[128], token[1024];
    snprintf(path, sizeof path, "%s/endpoint", home);
    first_line(path, endpoint, sizeof endpoint);
    const char *prefix = "127.0.0.1:";
    if (strncmp(endpoint, prefix, strlen(prefix)) != 0) {
        return 0;
    }
    const char *digits = endpoint + strlen(prefix);
    if (!all_digits(digits) || strlen(digits) > 5) {
        return 0;
    }
    unsigned port = (unsigned) atoi(digits);
    if (!sidecar_is_ours(port)) {
        return 0;
    }
    snprintf(path, sizeof path, "%s/token", home);
    if (!*first_line(path, token, sizeof token)) {
        return 0;
    }
    Text request = {0}, reply = {0};
    appendf(&request, "POST %s HTTP/1.0\r\nAuthorization: Bearer %s\r\nContent-Length: %zu\r\n\r\n", target, token,
            body_length);
    append(&request, body, body_length);

    /* The alarm interrupts whichever call is waiting when the budget is spent (no SA_RESTART). */
    struct sigaction alarm_action = {0}, before;
    alarm_action.sa_handler = on_alarm;
    sigaction(SIGALRM, &alarm_action, &before);
    alarm(budget);
    int whole = 0;
    int sock = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in address = {0};
    address.sin_family = AF_INET;
    address.sin_port = htons((unsigned short) port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (sock >= 0 && connect(sock, (struct sockaddr *) &address, sizeof address) == 0) {
        size_t sent = 0;
        while (sent < request.length) {
            /* MSG_NOSIGNAL: a sidecar that closes early is an error, not SIGPIPE. */
            ssize_t n = send(sock, request.text + sent, request.length - sent, MSG_NOSIGNAL);
            if (n < 0) {
                break;
            }
            sent += (size_t) n;
        }
        if (sent == request.length) {
            char chunk[65536];
            for (;;) {
                ssize_t n = read(sock, chunk, sizeof chunk);
                if (n < 0) {
                    break;
                }
                if (n == 0) {
                    whole = 1;
                    break;
                }
                append(&reply, chunk, (size_t) n);
                if (reply.length >= ANSWER_LIMIT) {
                    whole = 1;
                    break;
                }
            }
        }
    }
    alarm(0);
    sigaction(SIGALRM, &before, NULL);
    if (sock >= 0) {
        close(sock);
    }
    free(request.text);
    char *split = whole && reply.text ? strstr(reply.text, "\r\n\r\n") : NULL;
    if (!split) {
        free(reply.text);
        return 0;
    }
    memset(answer, 0, sizeof *answer);
    append(&answer->head, reply.text, (size_t) (split - reply.text));
    for (size_t i = 0; i < answer->head.length; i++) {
        answer->head.text[i] = (char) tolower((unsigned char) answer->head.text[i]);
    }
    const char *rest = split + 4;
    size_t rest_length = reply.length - (size_t) (rest - reply.text);
    int status = 0;
    if (sscanf(answer->head.text, "http/1.%*1[01] %3d", &status) != 1 || status < 100) {
        free(reply.text);
        return 0;
    }
    answer->status = status;
    const char *length_header = strstr(answer->head.text, "\ncontent-length:");
    if (length_header) {
        size_t declared = strtoul(length_header + strlen("\ncontent-length:"), NULL, 10);
        if (rest_length < declared) {
            free(reply.text);
            return 0;
        }
        rest_length = declared;
    }
    append(&answer->body, rest, rest_length);
    free(reply.text);
    return 1;
}

/* The value of a header of the answer made of the characters allowed, or NULL. */
static char *header(const Answer *answer, const char *name, const char *allowed, char *value, size_t size) {
    char wanted[64];
    snprintf(wanted, sizeof wanted, "\n%s:", name);
    const char *found = strstr(answer->head.text, wanted);
    if (!found) {
        return NULL;
    }
    found += strlen(wanted);
    found += strspn(found, " ");
    size_t length = strspn(found, allowed);
    if (length == 0 || length >= size) {
        return NULL;
    }
    snprintf(value, size, "%.*s", (int) length, found);
    return value;
}

/*
 * Asks which files to make read-only for the command: sets files, run and note from the answer. A sidecar that
 * cannot be reached, or refuses, leaves the command to run as it is.
 */
static void ask_sidecar(const char *command) {
    const char *call = getenv("CLAUDE_CODE_TOOL_USE_ID");
    if (!call || !*call) {
        call = getenv("CODEX_TOOL_CALL_ID");
    }
    if (!call || call[strspn(call, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:-")] != '\0') {
        call = "";
    }
    /* The directory as the shell would name it: PWD where it names this one (as bash decides), else the kernel's. */
    char cwd[4096] = "";
    const char *pwd = getenv("PWD");
    struct stat here, named;
    if (pwd && pwd[0] == '/' && stat(".", &here) == 0 && stat(pwd, &named) == 0 && here.st_dev == named.st_dev
            && here.st_ino == named.st_ino) {
        snprintf(cwd, sizeof cwd, "%s", pwd);
    } else {
        ssize_t length = readlink("/proc/self/cwd", cwd, sizeof cwd - 1);
        cwd[length > 0 ? length : 0] = '\0';
    }
    Text target = {0}, body = {0};
    appendf(&target, "/v1/shell/guard?pid=%d&ppid=%d&call=%s", (int) getpid(), (int) getppid(), call);
    appendf(&body, "%s\n%s", cwd, command);
    Answer answer;
    if (!exchange(target.text, body.text, body.length, &answer)) {
        run_as_is();
    }
    const char *said = answer.body.text ? answer.body.text : "";
    if (answer.status != 200) {
        fprintf(stderr, "Baton could not check which files this command may change (HTTP %d: %s); it runs as it is.\n",
                answer.status, said);
        run_as_is();
    }
    char guard[32] = "none", count_text[16] = "0", run_id[128];
    header(&answer, "x-baton-guard", "abcdefghijklmnopqrstuvwxyz", guard, sizeof guard);
    if (header(&answer, "x-baton-run", "abcdefghijklmnopqrstuvwxyz0123456789-", run_id, sizeof run_id)) {
        snprintf(run, sizeof run, "%s", run_id);
    }
    header(&answer, "x-baton-files", "0123456789", count_text, sizeof count_text);
    size_t count = strtoul(count_text, NULL, 10), lines = 1;
    for (const char *at = said; (at = strchr(at, '\n')); at++) {
        lines++;
    }
    if (count > lines) {
        count = lines; /* never more files than the body has lines */
    }
    files = calloc(count + 1, sizeof *files);
    const char *line = said;
    while (file_count < count && *line) {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t) (end - line) : strlen(line);
        files[file_count++] = strndup(line, length);
        line += length + (end ? 1 : 0);
        if (!end) {
            break;
        }
    }
    append(&note, line, strlen(line));
    while (note.length > 0 && note.text[note.length - 1] == '\n') {
        note.text[--note.length] = '\0';
    }
    if (strcmp(guard, "unwrapped") == 0) {
        fprintf(stderr, "%s\n", note.text ? note.text : "");
        file_count = 0;
    }
}

/* --- The namespaces --- */

/* The user and group, read before the first namespace: inside a new one they read as the overflow ids until mapped. */
static uid_t user;
static gid_t group;

/* A user and mount namespace of this process's own, mapping its user and group to themselves: "" or what failed. */
static const char *enter_namespaces(char *why, size_t size) {
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
        snprintf(why, size, "unshare: %s", strerror(errno));
        return why;
    }
    char uid_map[64], gid_map[64];
    snprintf(uid_map, sizeof uid_map, "%u %u 1", (unsigned) user, (unsigned) user);
    snprintf(gid_map, sizeof gid_map, "%u %u 1", (unsigned) group, (unsigned) group);
    const char *names[] = {"setgroups", "uid_map", "gid_map"};
    const char *values[] = {"deny", uid_map, gid_map};
    for (int i = 0; i < 3; i++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/self/%s", names[i]);
        int fd = open(path, O_WRONLY | O_CLOEXEC);
        if (fd < 0 || write(fd, values[i], strlen(values[i])) != (ssize_t) strlen(values[i])) {
            snprintf(why, size, "%s: %s", names[i], strerror(errno));
            if (fd >= 0) {
                close(fd);
            }
            return why;
        }
        close(fd);
    }
    why[0] = '\0';
    return why;
}

/*
 * The mount flags a bind of the file must keep when it is made read-only: a namespace inherits its parent's nosuid,
 * nodev, noexec and atime flags locked, and a remount that drops one is refused (statvfs f_flag ST_* -> MS_*).
 */
static unsigned long kept_flags(const char *file) {
    struct statvfs about;
    if (statvfs(file, &about) != 0) {
        return 0;
    }
    unsigned long flags = about.f_flag, kept = 0;
    kept |= flags & (ST_NOSUID | ST_NODEV | ST_NOEXEC | ST_NOATIME | ST_NODIRATIME);
    if (flags & ST_RELATIME) {
        kept |= MS_RELATIME;
    }
    return kept;
}

/*
 * Binds each file read-only over itself, locks the binds and drops every capability: "" (the files it could not
 * bind named in *failed, counted in *unprotected) or why none is protected.
 */
static const char *protect(char *why, size_t size, Text *failed, size_t *unprotected) {
    if (*enter_namespaces(why, size)) {
        return why;
    }
    for (size_t i = 0; i < file_count; i++) {
        struct stat about;
        if (stat(files[i], &about) != 0) {
            continue; /* held before it exists: nothing to bind yet (the check after the command sees it) */
        }
        unsigned long flags = kept_flags(files[i]);
        if (mount(files[i], files[i], "none", MS_BIND, NULL) != 0
                || mount("none", files[i], "none", MS_BIND | MS_REMOUNT | MS_RDONLY | flags, NULL) != 0) {
            appendf(failed, "%s%s (%s)", failed->length ? ", " : "", files[i], strerror(errno));
            (*unprotected)++;
        }
    }
    /* Lock the binds: a namespace below this one inherits them locked (and read-only for good). */
    char locked[256];
    if (*enter_namespaces(locked, sizeof locked)) {
        snprintf(why, size, "could not lock the read-only files (%s)", locked);
        return why;
    }
    for (int cap = 0; cap < 64; cap++) {
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && cap > 40) {
            break; /* past the kernel's last capability */
        }
    }
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    /* capset(2) with _LINUX_CAPABILITY_VERSION_3 and empty sets; libc has no wrapper of its own. */
    unsigned int capability_header[2] = {0x20080522, 0}, capability_data[6] = {0};
    syscall(SYS_capset, capability_header, capability_data);
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    why[0] = '\0';
    return why;
}

/* --- The command, as this process's child --- */

static pid_t child;

static void forward(int signal) {
    kill(child, signal); /* signals meant for the command reach it; this process only waits and reports */
}

static int run_and_wait(void) {
    int protected_files = 0;
    if (file_count > 0) {
        user = getuid();
        group = getgid();
        char why[512];
        Text failed = {0};
        size_t unprotected = 0;
        if (*protect(why, sizeof why, &failed, &unprotected)) {
            if (file_count == 1) {
                fprintf(stderr, "Baton could not make the file another session holds read-only for this command (%s);"
                        " it runs with Baton's checks before and after it only.\n", why);
            } else {
                fprintf(stderr, "Baton could not make the %zu files other sessions hold read-only for this command"
                        " (%s); it runs with Baton's checks before and after it only.\n", file_count, why);
            }
        } else {
            protected_files = (int) (file_count - unprotected);
            if (failed.length) {
                fprintf(stderr, "Baton could not make these held files read-only: %s\n", failed.text);
            }
        }
        free(failed.text);
    }
    child = fork();
    if (child < 0) {
        fprintf(stderr, "baton-shell: cannot start %s: %s\n", shell[0], strerror(errno));
        exit(127);
    }
    if (child == 0) {
        run_as_is();
    }
    int signals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};
    struct sigaction forwarding = {0};
    forwarding.sa_handler = forward;
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        sigaction(signals[i], &forwarding, NULL);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    int exit_code = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
    if (exit_code != 0 && protected_files > 0 && note.length > 0) {
        fprintf(stderr, "\n%s\n", note.text);
    }
    if (strcmp(run, "-") != 0) {
        char target[200];
        snprintf(target, sizeof target, "/v1/shell/ended?run=%s", run);
        Answer ended;
        if (exchange(target, "", 0, &ended) && ended.status == 200 && ended.body.length > 0) {
            fprintf(stderr, "%s\n", ended.body.text);
        }
    }
    return exit_code;
}

int main(int argc, char **argv) {
    const char *self = argc > 0 ? argv[0] : "baton-shell";
    argc--, argv++;
    const char *baton_home = getenv("BATON_HOME");
    if (baton_home && *baton_home) {
        snprintf(home, sizeof home, "%s", baton_home);
    } else {
        const char *state = getenv("XDG_STATE_HOME");
        const char *user_home = getenv("HOME");
        if (state && *state) {
            snprintf(home, sizeof home, "%s/baton", state);
        } else {
            snprintf(home, sizeof home, "%s/.local/state/baton", user_home ? user_home : "");
        }
    }
    const char *timeout = getenv("BATON_HOOK_TIMEOUT");
    if (timeout && all_digits(timeout) && strlen(timeout) <= 3) {
        budget = (unsigned) atoi(timeout);
    }
    if (budget < 1) {
        budget = 1;
    }

    if (argc > 0 && strcmp(argv[0], "--shell") == 0) {
        argc--, argv++;
    }
    if (argc > 0 && strcmp(argv[0], "--read-only") == 0) {
        /*
         * baton-shell --read-only FILE... -- PROGRAM ARG...: PROGRAM runs with the FILEs read-only, the sidecar not
         * asked (`baton doctor` tries the namespaces with it). It only takes rights away.
         */
        argc--, argv++;
        files = calloc((size_t) argc + 1, sizeof *files);
        while (argc > 0 && strcmp(argv[0], "--") != 0) {
            files[file_count++] = argv[0];
            argc--, argv++;
        }
        if (argc > 0) {
            argc--, argv++;
        }
        if (argc == 0) {
            fputs("usage: baton-shell --read-only FILE... -- PROGRAM ARG...\n", stderr);
            return 2;
        }
        shell = argv;
        setenv("BATON_SHELL_GUARD", "1", 1);
        return run_and_wait();
    }
    int took_c = argc > 0 && (strcmp(argv[0], "-c") == 0
            || (strcmp(argv[0], "--login") == 0 && argc > 1 && strcmp(argv[1], "-c") == 0));
    char *command = choose_shell(&argc, &argv);
    const char *lock = getenv("CLAUDE_FILE_LOCK"), *baton = getenv("BATON"), *guarded = getenv("BATON_SHELL_GUARD");
    if ((lock && strcmp(lock, "0") == 0) || (baton && strcmp(baton, "off") == 0) || (guarded && *guarded)) {
        run_as_is();
    }
    setenv("BATON_SHELL_GUARD", "1", 1);
    if (!took_c) {
        start_own_program(self, command);
    }
    ask_sidecar(command);
    if (file_count == 0 && strcmp(run, "-") == 0) {
        run_as_is();
    }
    return run_and_wait();
}
