package dev.baton.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AgentKindTest {

    private static final AgentKind CODEX = new AgentKind("codex");

    @Test
    void theCliAndApiClientsAreNoAgentsAndEveryOtherKindIs() {
        assertThat(AgentKind.CLI.isAgent()).isFalse();
        assertThat(AgentKind.API.isAgent()).isFalse();
        assertThat(CODEX.isAgent()).isTrue();
    }

    @Test
    void kindsWithOneWireNameAreEqual() {
        assertThat(new AgentKind("cli")).isEqualTo(AgentKind.CLI).hasSameHashCodeAs(AgentKind.CLI);
        assertThat(new AgentKind("codex")).isEqualTo(CODEX).isNotEqualTo(AgentKind.API);
    }

    @Test
    void aStoredRowKeepsItsAgentsNameAndOneWithoutAnyIsAnApiSession() {
        assertThat(AgentKind.stored("codex")).isEqualTo(CODEX);
        assertThat(AgentKind.stored("an-agent-of-a-newer-baton").wireName()).isEqualTo("an-agent-of-a-newer-baton");
        assertThat(AgentKind.stored(null)).isEqualTo(AgentKind.API);
        assertThat(AgentKind.stored(" ")).isEqualTo(AgentKind.API);
    }

    @Test
    void theKnownKindsAreTheAgentsGivenThenTheCliAndApiClients() {
        AgentKinds kinds = new AgentKinds(List.of(CODEX, new AgentKind("gemini"), CODEX));

        assertThat(kinds.allWireNames()).isEqualTo("codex, gemini, cli, api");
        assertThat(kinds.fromWireName(" CODEX ")).contains(CODEX);
        assertThat(kinds.fromWireName("api")).contains(AgentKind.API);
        assertThat(kinds.fromWireName("cursor")).isEmpty();
        assertThat(kinds.fromWireName(null)).isEmpty();
    }
}
