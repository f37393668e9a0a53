package dev.baton.dashboard.view;

/** The pages of the sidebar, in order. */
public enum Page {
    OVERVIEW("Overview", "Who waits for whom, deadlocks and open negotiations at a glance"),
    SESSIONS("Sessions", "Every agent session: what it holds, whom it waits for, what it plans"),
    LOCKS("Locks", "Every locked file and its holder; force-release a lock left behind"),
    /** Listed only while the sidecar shares its locks with other machines. */
    TEAM("Team", "Every machine of the team, its lease, and every file held on any of them"),
    NEGOTIATIONS("Negotiations", "Requests for held files and the time left before they may be forced"),
    MESSAGES("Messages", "What the sessions told each other"),
    ACTIVITY("Activity", "The live event log");

    private final String title;
    private final String description;

    Page(String title, String description) {
        this.title = title;
        this.description = description;
    }

    public String title() {
        return title;
    }

    public String description() {
        return description;
    }

    /** For --page: the name in lower case. */
    public static Page named(String name) {
        return valueOf(name.trim().toUpperCase(java.util.Locale.ROOT));
    }
}
