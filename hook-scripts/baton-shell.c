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
#include <poll.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
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
static char run[128] = "-"; /* the run whose end the sidecar wants reported, or "-" */
static Text note;           /* Baton's words for the agent after a failure */
#define NOTE_LIMIT 16384    /* the most of the note the binder hands the wrapper */
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

/* An answer of the sidecar: the status, the header in lower case (to find names) and as sent (for values), the body. */
typedef struct {
    int status;
    Text head, sent, body;
} Answer;

/*
 * Opens a connection to this BATON_HOME's live sidecar and sends one HTTP/1.0 request: the socket, or -1 when there
 * is no sidecar to talk to. The caller bounds the wait (an alarm, or its poll).
 */
static int send_request(const char *target, const char *body, size_t body_length) {
    char path[4200], endpoint[128], token[1024];
    snprintf(path, sizeof path, "%s/endpoint", home);
    first_line(path, endpoint, sizeof endpoint);
    const char *prefix = "127.0.0.1:";
    if (strncmp(endpoint, prefix, strlen(prefix)) != 0) {
        return -1;
    }
    const char *digits = endpoint + strlen(prefix);
    if (!all_digits(digits) || strlen(digits) > 5) {
        return -1;
    }
    unsigned port = (unsigned) atoi(digits);
    if (!sidecar_is_ours(port)) {
        return -1;
    }
    snprintf(path, sizeof path, "%s/token", home);
    if (!*first_line(path, token, sizeof token)) {
        return -1;
    }
    Text request = {0};
    appendf(&request, "POST %s HTTP/1.0\r\nAuthorization: Bearer %s\r\nContent-Length: %zu\r\n\r\n", target, token,
            body_length);
    append(&request, body, body_length);
    int sock = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in address = {0};
    address.sin_family = AF_INET;
    address.sin_port = htons((unsigned short) port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int sent_all = 0;
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
        sent_all = sent == request.length;
    }
    free(request.text);
    if (!sent_all) {
        if (sock >= 0) {
            close(sock);
        }
        return -1;
    }
    return sock;
}

/* Reads what the sidecar sends until it closes: 1 when the answer came whole (or reached the limit). */
static int read_reply(int sock, Text *reply) {
    char chunk[65536];
    for (;;) {
        ssize_t n = read(sock, chunk, sizeof chunk);
        if (n < 0) {
            return 0;
        }
        if (n == 0) {
            return 1;
        }
        append(reply, chunk, (size_t) n);
        if (reply->length >= ANSWER_LIMIT) {
            return 1;
        }
    }
}

/* Splits a whole reply into status, header (lower case) and body: 1, or 0 for a reply that is not HTTP. */
static int parse_reply(Text *reply, Answer *answer) {
    char *split = reply->text ? strstr(reply->text, "\r\n\r\n") : NULL;
    if (!split) {
        return 0;
    }
    memset(answer, 0, sizeof *answer);
    append(&answer->head, reply->text, (size_t) (split - reply->text));
    append(&answer->sent, reply->text, (size_t) (split - reply->text));
    for (size_t i = 0; i < answer->head.length; i++) {
        answer->head.text[i] = (char) tolower((unsigned char) answer->head.text[i]);
    }
    const char *rest = split + 4;
    size_t rest_length = reply->length - (size_t) (rest - reply->text);
    int status = 0;
    if (sscanf(answer->head.text, "http/1.%*1[01] %3d", &status) != 1 || status < 100) {
        return 0;
    }
    answer->status = status;
    const char *length_header = strstr(answer->head.text, "\ncontent-length:");
    if (length_header) {
        size_t declared = strtoul(length_header + strlen("\ncontent-length:"), NULL, 10);
        if (rest_length < declared) {
            return 0;
        }
        rest_length = declared;
    }
    append(&answer->body, rest, rest_length);
    return 1;
}

/*
 * One HTTP/1.0 exchange with the sidecar, bounded by BATON_HOOK_TIMEOUT from its start: 1 with the answer, or 0 when
 * there is no sidecar to talk to or it did not answer in time.
 */
static int exchange(const char *target, const char *body, size_t body_length, Answer *answer) {
    /* The alarm interrupts whichever call is waiting when the budget is spent (no SA_RESTART). */
    struct sigaction alarm_action = {0}, before;
    alarm_action.sa_handler = on_alarm;
    sigaction(SIGALRM, &alarm_action, &before);
    alarm(budget);
    Text reply = {0};
    int sock = send_request(target, body, body_length);
    int whole = sock >= 0 && read_reply(sock, &reply);
    alarm(0);
    sigaction(SIGALRM, &before, NULL);
    if (sock >= 0) {
        close(sock);
    }
    int parsed = whole && parse_reply(&reply, answer);
    free(reply.text);
    return parsed;
}

/* The value of a header of the answer made of the characters allowed, or NULL. */
static char *header(const Answer *answer, const char *name, const char *allowed, char *value, size_t size) {
    char wanted[64];
    snprintf(wanted, sizeof wanted, "\n%s:", name);
    const char *found = strstr(answer->head.text, wanted);
    if (!found) {
        return NULL;
    }
    found = answer->sent.text + (found - answer->head.text) + strlen(wanted);
    found += strspn(found, " ");
    size_t length = strspn(found, allowed);
    if (length == 0 || length >= size) {
        return NULL;
    }
    snprintf(value, size, "%.*s", (int) length, found);
    return value;
}

/* What the sidecar asks to be protected: the files to make read-only, the directories to pin, and its version. */
typedef struct {
    char **files;
    size_t file_count;
    char **pins;
    size_t pin_count;
    char version[128];
} Plan;

static Plan plan;
static char ticket[8192] = ""; /* the sidecar's name of this command's watch, "" when none */

/* The next line of *at as a string of its own (NULL at the end), moving *at past it. */
static char *take_line(const char **at) {
    if (!**at) {
        return NULL;
    }
    const char *end = strchr(*at, '\n');
    size_t length = end ? (size_t) (end - *at) : strlen(*at);
    char *line = strndup(*at, length);
    *at += length + (end ? 1 : 0);
    return line;
}

/*
 * Reads a plan from an answer of the guard or the watch: headers X-Baton-Files: N, X-Baton-Pins: M and
 * X-Baton-Version, a body of the N files, then the M directories, one per line. Returns where the rest of the body
 * (Baton's words) begins.
 */
static const char *read_plan(const Answer *answer, Plan *into) {
    char count_text[16] = "0", pin_text[16] = "0";
    header(answer, "x-baton-files", "0123456789", count_text, sizeof count_text);
    header(answer, "x-baton-pins", "0123456789", pin_text, sizeof pin_text);
    into->version[0] = '\0';
    header(answer, "x-baton-version", "0123456789abcdef", into->version, sizeof into->version);
    const char *said = answer->body.text ? answer->body.text : "";
    size_t lines = 1;
    for (const char *at = said; (at = strchr(at, '\n')); at++) {
        lines++;
    }
    size_t files_wanted = strtoul(count_text, NULL, 10), pins_wanted = strtoul(pin_text, NULL, 10);
    if (files_wanted > lines) {
        files_wanted = lines; /* never more entries than the body has lines */
    }
    if (pins_wanted > lines - files_wanted) {
        pins_wanted = lines - files_wanted;
    }
    into->files = calloc(files_wanted + 1, sizeof *into->files);
    into->pins = calloc(pins_wanted + 1, sizeof *into->pins);
    into->file_count = into->pin_count = 0;
    const char *at = said;
    char *line;
    while (into->file_count < files_wanted && (line = take_line(&at))) {
        into->files[into->file_count++] = line;
    }
    while (into->pin_count < pins_wanted && (line = take_line(&at))) {
        into->pins[into->pin_count++] = line;
    }
    return at;
}

static void free_plan(Plan *old) {
    for (size_t i = 0; i < old->file_count; i++) {
        free(old->files[i]);
    }
    for (size_t i = 0; i < old->pin_count; i++) {
        free(old->pins[i]);
    }
    free(old->files);
    free(old->pins);
    memset(old, 0, sizeof *old);
}

/* Baton's note for the agent becomes these words, their trailing newlines dropped. */
static void set_note(const char *words, size_t length) {
    note.length = 0;
    append(&note, words, length);
    while (note.length > 0 && note.text[note.length - 1] == '\n') {
        note.text[--note.length] = '\0';
    }
}

/*
 * Asks which files to make read-only for the command: sets plan, ticket, run and note from the answer. A sidecar
 * that cannot be reached, or refuses, leaves the command to run as it is.
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
    char guard[32] = "none", run_id[128];
    header(&answer, "x-baton-guard", "abcdefghijklmnopqrstuvwxyz", guard, sizeof guard);
    if (header(&answer, "x-baton-run", "abcdefghijklmnopqrstuvwxyz0123456789-", run_id, sizeof run_id)) {
        snprintf(run, sizeof run, "%s", run_id);
    }
    header(&answer, "x-baton-watch", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-=", ticket,
            sizeof ticket);
    const char *words_at = read_plan(&answer, &plan);
    set_note(words_at, strlen(words_at));
    if (strcmp(guard, "unwrapped") == 0) {
        fprintf(stderr, "%s\n", note.text ? note.text : "");
        free_plan(&plan);
        ticket[0] = '\0';
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
 * The mount API of Linux 5.12 (open_tree, mount_setattr, move_mount) through syscall(2): older C libraries have no
 * wrappers. A mount made this way is read-only before it is attached, so the copy that propagates into the command's
 * namespace is read-only from its first moment (a bind remounted read-only afterwards would propagate writable).
 */
#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#define BATON_OPEN_TREE_CLONE 1
#define BATON_AT_RECURSIVE 0x8000
#define BATON_MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#define BATON_MOUNT_ATTR_RDONLY 0x00000001

struct baton_mount_attr {
    unsigned long long attr_set, attr_clr, propagation, userns_fd;
};

/* Attaches a copy of PATH (with what is mounted below it) over PATH, read-only or not: 0, or -1 with errno. */
static int bind_over(const char *path, int read_only) {
    int tree = (int) syscall(SYS_open_tree, AT_FDCWD, path, BATON_OPEN_TREE_CLONE | O_CLOEXEC | BATON_AT_RECURSIVE);
    if (tree < 0) {
        return -1;
    }
    struct baton_mount_attr attributes = {0};
    attributes.attr_set = BATON_MOUNT_ATTR_RDONLY;
    int failed = (read_only && syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH, &attributes, sizeof attributes) != 0)
            || syscall(SYS_move_mount, tree, "", AT_FDCWD, path, BATON_MOVE_MOUNT_F_EMPTY_PATH) != 0;
    int saved = errno;
    close(tree);
    errno = saved;
    return failed ? -1 : 0;
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

/* A read-only bind of PATH over itself: with the mount API, else with bind and remount (kernels before 5.12). */
static int bind_read_only(const char *path) {
    if (bind_over(path, 1) == 0) {
        return 0;
    }
    if (errno != ENOSYS) {
        return -1;
    }
    unsigned long flags = kept_flags(path);
    if (mount(path, path, "none", MS_BIND, NULL) != 0
            || mount("none", path, "none", MS_BIND | MS_REMOUNT | MS_RDONLY | flags, NULL) != 0) {
        return -1;
    }
    return 0;
}

/* --- The binder: keeps the command's read-only set in step with the lock table --- */

/*
 * What the binder has done to one path: a file bound read-only (its inode then), or a directory pinned (a mount
 * point: no process of the command can rename or remove it).
 */
typedef struct {
    char *path;
    int wanted, bound, pin;
    dev_t device;
    ino_t inode;
    int watch; /* the inotify watch of its directory, -1 for none */
} Entry;

static Entry *entries;
static size_t entry_count, entry_capacity;
static int notify_fd = -1;
static int nested_limited;  /* whether this namespace may make no more user namespaces */
static int can_bind;        /* whether the namespaces were made: binds are possible */
static int ever_protected;  /* whether anything was bound or pinned for the command */
static Text rebound;        /* files bound again since the last watch request, one per line */

static Entry *entry(const char *path, int pin) {
    for (size_t i = 0; i < entry_count; i++) {
        if (entries[i].pin == pin && strcmp(entries[i].path, path) == 0) {
            return &entries[i];
        }
    }
    if (entry_count == entry_capacity) {
        entry_capacity = entry_capacity ? entry_capacity * 2 : 64;
        entries = realloc(entries, entry_capacity * sizeof *entries);
        if (!entries) {
            _exit(127);
        }
    }
    Entry *made = &entries[entry_count++];
    memset(made, 0, sizeof *made);
    made->path = strdup(path);
    made->pin = pin;
    made->watch = -1;
    return made;
}

/*
 * No user namespace below the command's from now on (the limit counts the command's own, which exists): one made
 * in it would hold every capability over its own mounts, and could unmount a bind that arrives later. Set once the
 * first file is protected, so commands that make namespaces of their own (a browser's sandbox) run while nothing is.
 */
static void limit_nested(void) {
    if (nested_limited) {
        return;
    }
    int fd = open("/proc/sys/user/max_user_namespaces", O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        nested_limited = write(fd, "1", 1) == 1;
        close(fd);
    }
}

static void watch_directory_of(Entry *file) {
    if (notify_fd < 0 || file->watch >= 0) {
        return;
    }
    char *dir = strdup(file->path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        file->watch = inotify_add_watch(notify_fd, dir, IN_CREATE | IN_MOVED_TO | IN_ONLYDIR);
    }
    free(dir);
}

/* Binds a wanted file read-only when it exists and is not bound on its present inode: 1 when it bound it now. */
static int bind_file(Entry *file, Text *failed) {
    struct stat about;
    if (!file->wanted || lstat(file->path, &about) != 0) {
        return 0; /* held before it exists: bound when it appears */
    }
    if (file->bound && about.st_dev == file->device && about.st_ino == file->inode) {
        return 0;
    }
    limit_nested();
    if (bind_read_only(file->path) != 0) {
        if (failed) {
            appendf(failed, "%s%s (%s)", failed->length ? ", " : "", file->path, strerror(errno));
        }
        return 0;
    }
    file->bound = 1;
    ever_protected = 1;
    file->device = about.st_dev;
    file->inode = about.st_ino;
    return 1;
}

/*
 * Brings the binds to a plan: directories pinned first (a pin copies what is below it, binds included), then every
 * wanted file bound, and every file no longer wanted unbound. Pins stay for the namespace's life: taking one away
 * would show what it covered. Returns how many wanted files are bound.
 */
static size_t apply(const Plan *wanted, Text *failed) {
    if (!can_bind) {
        return 0;
    }
    for (size_t i = 0; i < wanted->pin_count; i++) {
        Entry *pin = entry(wanted->pins[i], 1);
        if (!pin->bound && bind_over(pin->path, 0) == 0) {
            pin->bound = 1;
            ever_protected = 1;
        }
    }
    for (size_t i = 0; i < entry_count; i++) {
        if (!entries[i].pin) {
            entries[i].wanted = 0;
        }
    }
    for (size_t i = 0; i < wanted->file_count; i++) {
        entry(wanted->files[i], 0)->wanted = 1;
    }
    size_t bound = 0;
    for (size_t i = 0; i < entry_count; i++) {
        Entry *file = &entries[i];
        if (file->pin) {
            continue;
        }
        if (file->wanted) {
            watch_directory_of(file);
            bind_file(file, failed);
            bound += file->bound;
        } else if (file->bound) {
            /* Lazily: a process of the command may have the file open. The unmount propagates into its namespace. */
            umount2(file->path, MNT_DETACH);
            file->bound = 0;
        }
    }
    return bound;
}

/*
 * A file appeared or was put in place in a watched directory (a holder saving by rename replaces the inode, and the
 * kernel takes the bind of the old one away): the wanted files there are bound again on their new inode.
 */
static void on_directory_change(void) {
    char events[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
    ssize_t length = read(notify_fd, events, sizeof events);
    for (char *at = events; length > 0 && at < events + length;) {
        struct inotify_event *event = (struct inotify_event *) at;
        for (size_t i = 0; i < entry_count; i++) {
            Entry *file = &entries[i];
            if (!file->pin && file->wanted && file->watch == event->wd && bind_file(file, NULL)) {
                appendf(&rebound, "%s\n", file->path);
            }
        }
        at += sizeof *event + event->len;
    }
}

/* The sidecar's connection for the next change of the plan: -1 while none is open. */
static int watch_sock = -1;
static Text watch_reply;
static int retry_millis = 0;

/* How long the binder waits before it first asks for changes: the most a file taken meanwhile waits for its bind. */
#define FIRST_WATCH_DELAY_MS 40

static void ask_for_changes(void) {
    Text body = {0};
    appendf(&body, "%s\n%s\n", ticket, plan.version);
    append(&body, rebound.text ? rebound.text : "", rebound.length);
    rebound.length = 0;
    watch_sock = send_request("/v1/shell/watch", body.text, body.length);
    free(body.text);
    watch_reply.length = 0;
    retry_millis = watch_sock < 0 ? (retry_millis ? (retry_millis * 2 > 5000 ? 5000 : retry_millis * 2) : 100) : 0;
}

/* The sidecar answered (or closed): a new plan is applied, and the next change asked for. */
static void on_watch_answer(void) {
    char chunk[65536];
    ssize_t n = read(watch_sock, chunk, sizeof chunk);
    if (n > 0) {
        append(&watch_reply, chunk, (size_t) n);
        if (watch_reply.length < ANSWER_LIMIT) {
            return;
        }
    }
    close(watch_sock);
    watch_sock = -1;
    Answer answer = {0};
    int parsed = n == 0 && parse_reply(&watch_reply, &answer);
    if (parsed && answer.status == 200) {
        Plan next = {0};
        const char *words = read_plan(&answer, &next);
        if (*words) {
            /* The note as the lock table is now: a file taken while the command ran is named with its holder. */
            set_note(words, strlen(words));
        }
        apply(&next, NULL);
        free_plan(&plan);
        plan = next;
        retry_millis = 0;
    } else if (parsed && answer.status >= 400 && answer.status < 500) {
        ticket[0] = '\0'; /* the sidecar will not follow this command: the binds stay as they are */
    } else {
        retry_millis = 250;
    }
    free(answer.head.text);
    free(answer.sent.text);
    free(answer.body.text);
}

static int child_signals[2] = {-1, -1};

static void on_child(int signal) {
    (void) signal;
    int saved = errno;
    if (write(child_signals[1], "c", 1) < 0) {
        /* the pipe is full: a wake-up is already pending */
    }
    errno = saved;
}

/* The command, in its own locked namespace below the binder's, without any capability. */
static void run_command(int can_lock) {
    if (can_lock) {
        char why[256];
        if (*enter_namespaces(why, sizeof why)) {
            fprintf(stderr, "Baton could not lock the read-only files for this command (%s).\n", why);
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
    }
    signal(SIGCHLD, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    run_as_is();
}

/*
 * The command's standard error, when the agent reads it through a pipe, passes through the binder on its way: a
 * write that hit a read-only held file ("Read-only file system") or a pinned directory ("Device or resource busy")
 * is seen there, and the wrapper then adds Baton's note even when the command went on and exited 0. Standard output
 * goes through too where the agent gave both one pipe, so their order stays as it was. A terminal or a file is left
 * as it is (the note then follows a failure only). The binder holds the agent's stream only while a process of the
 * command still holds the pipe.
 */
static int relay_in = -1, relay_out = -1;
static int saw_refusal;
static char relay_tail[64];
static size_t relay_tail_length;

static void scan_for_refusals(const char *bytes, size_t length) {
    static const char *needles[] = {"Read-only file system", "Device or resource busy"};
    char window[sizeof relay_tail + 4096];
    while (length > 0 && !saw_refusal) {
        size_t take = length < 4096 ? length : 4096;
        memcpy(window, relay_tail, relay_tail_length);
        memcpy(window + relay_tail_length, bytes, take);
        size_t total = relay_tail_length + take;
        for (int i = 0; i < 2 && !saw_refusal; i++) {
            if (memmem(window, total, needles[i], strlen(needles[i]))) {
                saw_refusal = 1;
            }
        }
        relay_tail_length = total < sizeof relay_tail ? total : sizeof relay_tail;
        memcpy(relay_tail, window + total - relay_tail_length, relay_tail_length);
        bytes += take;
        length -= take;
    }
}

/* Passes on what the command wrote: 0 once every writer has closed the pipe (the relay ends), else 1. */
static int relay_some(void) {
    char chunk[65536];
    ssize_t n = read(relay_in, chunk, sizeof chunk);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
        return 1;
    }
    if (n <= 0) {
        close(relay_in);
        close(relay_out);
        relay_in = relay_out = -1;
        return 0;
    }
    scan_for_refusals(chunk, (size_t) n);
    for (ssize_t written = 0; written < n;) {
        ssize_t put = write(relay_out, chunk + written, (size_t) (n - written));
        if (put < 0 && errno == EINTR) {
            continue;
        }
        if (put <= 0) {
            /* The agent stopped reading: the command's next write fails as it would on the agent's closed pipe. */
            close(relay_in);
            close(relay_out);
            relay_in = relay_out = -1;
            return 0;
        }
        written += put;
    }
    return 1;
}

/* Sets up the relay when the agent reads standard error through a pipe: the write end for the command, or -1. */
static int open_relay(int *merged) {
    struct stat err, out;
    *merged = 0;
    if (fstat(2, &err) != 0 || !S_ISFIFO(err.st_mode)) {
        return -1;
    }
    *merged = fstat(1, &out) == 0 && out.st_dev == err.st_dev && out.st_ino == err.st_ino;
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) {
        return -1;
    }
    relay_out = fcntl(2, F_DUPFD_CLOEXEC, 3);
    if (relay_out < 0) {
        close(ends[0]);
        close(ends[1]);
        return -1;
    }
    relay_in = ends[0];
    fcntl(relay_in, F_SETFL, O_NONBLOCK);
    return ends[1];
}

/*
 * The binder: makes the first user and mount namespace (its mounts shared, so what it binds later reaches the
 * command's namespace below), binds the plan, starts the command in a second, locked namespace, tells the wrapper
 * the command's pid and then its status (through report), and stays, without the agent's standard streams, for as
 * long as anything the command started runs (it is their subreaper): it asks the sidecar for every change of the
 * plan and binds or unbinds at once, and binds a held file again when its holder replaced it.
 * It cannot be traced or read by the command's processes (not dumpable; they hold no capability over it).
 */
static void binder(int report) {
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    char why[512] = "";
    can_bind = !*enter_namespaces(why, sizeof why);
    if (can_bind && mount(NULL, "/", NULL, MS_REC | MS_SHARED, NULL) != 0) {
        snprintf(why, sizeof why, "mount propagation: %s", strerror(errno));
        can_bind = 0;
    }
    if (can_bind) {
        notify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    }
    Text failed = {0};
    size_t bound = apply(&plan, &failed);
    if (!can_bind && plan.file_count > 0) {
        fprintf(stderr, "Baton could not make the files other sessions hold read-only for this command (%s); it runs"
                " with Baton's checks before and after it only.\n", why);
    } else if (failed.length) {
        fprintf(stderr, "Baton could not make these held files read-only: %s\n", failed.text);
    }
    free(failed.text);
    if (pipe2(child_signals, O_CLOEXEC | O_NONBLOCK) != 0) {
        _exit(127);
    }
    struct sigaction on_exit_of_child = {0};
    on_exit_of_child.sa_handler = on_child;
    on_exit_of_child.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    sigaction(SIGCHLD, &on_exit_of_child, NULL);
    int merged = 0, relay_write = open_relay(&merged);
    pid_t command = fork();
    if (command < 0) {
        fprintf(stderr, "baton-shell: cannot start %s: %s\n", shell[0], strerror(errno));
        _exit(127);
    }
    if (command == 0) {
        if (relay_write >= 0) {
            dup2(relay_write, 2);
            if (merged) {
                dup2(relay_write, 1);
            }
            close(relay_write);
            close(relay_in);
            close(relay_out);
        }
        close(report);
        close(child_signals[0]);
        close(child_signals[1]);
        if (notify_fd >= 0) {
            close(notify_fd);
        }
        run_command(can_bind);
    }
    if (relay_write >= 0) {
        close(relay_write);
    }
    int protected_files = (int) bound;
    int started[2] = {(int) command, protected_files};
    if (write(report, started, sizeof started) != sizeof started) {
        /* the wrapper is gone: the command runs on all the same */
    }
    /* Signals meant for the command reach it through the wrapper; this process outlives a Ctrl-C of the command. */
    signal(SIGINT, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    /*
     * Nor does it die with the agent's end of a pipe: a wrapper the agent killed (a command it gave up on) leaves the
     * report pipe, and perhaps the relayed stream, without a reader, and what the command left running still needs
     * this process to follow the lock table. The command was started before, with the dispositions it was given.
     */
    signal(SIGPIPE, SIG_IGN);
    int quiet = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (quiet >= 0) {
        /* The agent reads the command's output until every holder of it closes it: this process holds none. */
        dup2(quiet, 0);
        dup2(quiet, 1);
        dup2(quiet, 2);
        close(quiet);
    }
    int watching = can_bind && *ticket, command_running = 1;
    /*
     * When to ask the sidecar next (monotonic ms). The first question waits a moment: most commands end before it,
     * and cost the sidecar nothing more; a change meanwhile is answered at once when it comes, the plan's version
     * being older.
     */
    struct timespec begun;
    clock_gettime(CLOCK_MONOTONIC, &begun);
    long long retry_at = (long long) begun.tv_sec * 1000 + begun.tv_nsec / 1000000 + FIRST_WATCH_DELAY_MS;
    for (;;) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long long millis = (long long) now.tv_sec * 1000 + now.tv_nsec / 1000000;
        if (watching && *ticket && watch_sock < 0 && millis >= retry_at) {
            ask_for_changes();
            retry_at = millis + retry_millis;
        }
        struct pollfd watched[4];
        int count = 0;
        watched[count++] = (struct pollfd) {child_signals[0], POLLIN, 0};
        if (relay_in >= 0) {
            watched[count++] = (struct pollfd) {relay_in, POLLIN, 0};
        }
        if (notify_fd >= 0) {
            watched[count++] = (struct pollfd) {notify_fd, POLLIN, 0};
        }
        if (watch_sock >= 0) {
            watched[count++] = (struct pollfd) {watch_sock, POLLIN, 0};
        }
        int timeout = watching && *ticket && watch_sock < 0 ? (int) (retry_at > millis ? retry_at - millis : 0) : -1;
        int ready = poll(watched, (nfds_t) count, timeout);
        for (int i = 0; ready > 0 && i < count; i++) {
            if (!watched[i].revents) {
                continue;
            }
            if (watched[i].fd == child_signals[0]) {
                char drained[64];
                while (read(child_signals[0], drained, sizeof drained) > 0) {
                }
            } else if (watched[i].fd == relay_in) {
                relay_some();
            } else if (watched[i].fd == notify_fd) {
                on_directory_change();
            } else if (watched[i].fd == watch_sock) {
                on_watch_answer();
                if (watch_sock < 0 && retry_millis) {
                    retry_at = millis + retry_millis;
                }
            }
        }
        for (;;) {
            int status;
            pid_t ended = waitpid(-1, &status, WNOHANG);
            if (ended < 0 && errno == ECHILD) {
                _exit(0); /* nothing the command started runs any more */
            }
            if (ended <= 0) {
                break;
            }
            if (ended == command && command_running) {
                command_running = 0;
                /* What the command wrote before it ended reaches the agent before the wrapper's note. */
                for (int drained = 0; relay_in >= 0 && drained < 64; drained++) {
                    struct pollfd more = {relay_in, POLLIN, 0};
                    if (poll(&more, 1, 0) <= 0 || !relay_some()) {
                        break;
                    }
                }
                /* The end: the exit code, whether a write hit a protected path, and the note as last answered. */
                int length = note.length > NOTE_LIMIT ? NOTE_LIMIT : (int) note.length;
                int code[3] = {WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status),
                               saw_refusal && ever_protected, length};
                if (write(report, code, sizeof code) != sizeof code
                        || (length > 0 && write(report, note.text, (size_t) length) != length)) {
                    /* the wrapper is gone */
                }
                close(report);
            }
        }
    }
}

/* --- The wrapper: the agent's child, for as long as the command runs --- */

static pid_t child;

static void forward(int signal) {
    if (child > 0) {
        kill(child, signal); /* signals meant for the command reach it; this process only waits and reports */
    }
}

static int run_and_wait(void) {
    user = getuid();
    group = getgid();
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) {
        fprintf(stderr, "baton-shell: cannot start %s: %s\n", shell[0], strerror(errno));
        exit(127);
    }
    fflush(stderr);
    pid_t helper = fork();
    if (helper < 0) {
        fprintf(stderr, "baton-shell: cannot start %s: %s\n", shell[0], strerror(errno));
        exit(127);
    }
    if (helper == 0) {
        close(report[0]);
        binder(report[1]);
    }
    close(report[1]);
    int signals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};
    struct sigaction forwarding = {0};
    forwarding.sa_handler = forward;
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        sigaction(signals[i], &forwarding, NULL);
    }
    int started[2] = {0, 0}, exit_code = 127;
    ssize_t got = 0;
    while ((got = read(report[0], started, sizeof started)) < 0 && errno == EINTR) {
    }
    if (got != sizeof started) {
        fprintf(stderr, "baton-shell: could not start %s\n", shell[0]);
        return 127;
    }
    child = started[0];
    int ended[3] = {127, 0, 0};
    while ((got = read(report[0], ended, sizeof ended)) < 0 && errno == EINTR) {
    }
    exit_code = got == sizeof ended ? ended[0] : 127;
    if (got == sizeof ended && ended[2] > 0 && ended[2] <= NOTE_LIMIT) {
        /* The binder's note names what the lock table held when it last asked, files taken meanwhile included. */
        char *last = malloc((size_t) ended[2] + 1);
        size_t have = 0;
        while (last && have < (size_t) ended[2]) {
            ssize_t n = read(report[0], last + have, (size_t) ended[2] - have);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n <= 0) {
                break;
            }
            have += (size_t) n;
        }
        if (last && have == (size_t) ended[2]) {
            set_note(last, have);
        }
        free(last);
    }
    /* The binder goes on without this process; reaping it is whoever adopts it next. */
    if ((exit_code != 0 && started[1] > 0) || ended[1]) {
        if (note.length > 0) {
            fprintf(stderr, "\n%s\n", note.text);
        } else if (ended[1]) {
            fprintf(stderr, "\nBaton: files other sessions hold were read-only for this command, and the directories"
                    " above them could not be renamed or removed. A \"Read-only file"
                    " system\" or \"Device or resource busy\" error on one of them means the command tried to change"
                    " another session's work: `baton locks` shows who holds what; ask for a file with `baton negotiate"
                    " FILE --reason \"...\"`.\n");
        }
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
        plan.files = calloc((size_t) argc + 1, sizeof *plan.files);
        while (argc > 0 && strcmp(argv[0], "--") != 0) {
            plan.files[plan.file_count++] = argv[0];
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
    if (plan.file_count == 0 && plan.pin_count == 0 && !*ticket && strcmp(run, "-") == 0) {
        run_as_is();
    }
    return run_and_wait();
}
