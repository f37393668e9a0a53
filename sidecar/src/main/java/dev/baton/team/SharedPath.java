package dev.baton.team;

/** A file as every machine of the team names it: the repository's shared identity and the path inside it ('/'-separated). */
record SharedPath(String repository, String path) {

    @Override
    public String toString() {
        return repository + ":" + path;
    }
}
