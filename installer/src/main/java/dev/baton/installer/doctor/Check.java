package dev.baton.installer.doctor;

/** One line of {@code baton doctor}'s report, with the fix to apply when it is a problem. */
public record Check(Status status, String subject, String detail, String fix) {

    /** How a check came out; SKIPPED is for agents this machine does not use and counts as fine. */
    public enum Status {
        OK("✔"), PROBLEM("✘"), SKIPPED("–");

        public final String symbol;

        Status(String symbol) {
            this.symbol = symbol;
        }
    }

    public static Check ok(String subject, String detail) {
        return new Check(Status.OK, subject, detail, "");
    }

    public static Check problem(String subject, String detail, String fix) {
        return new Check(Status.PROBLEM, subject, detail, fix);
    }
}
