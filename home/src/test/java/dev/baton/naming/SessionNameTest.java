package dev.baton.naming;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** How a session reads: short ids cut only between words, and the agent or the given name beside them. */
class SessionNameTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "3f2a9c1e-7b4d-4e0a-9d2f-1c8b5e6a7f01 | 3f2a9c1e",
            "c0p1l0t-5e55-4a1b-8c2d-0e9f8a7b6c5d  | c0p1l0t-5e55",
            "01a20ad7-0d1e-7261-a9b4-ba69d2d81e73 | 01a20ad7-0d1e",
            "ses_5c4f1a2b3ffeZ9aB3cD4eF5gH6       | ses_5c4f1a2b3ffe…",
            "ana-claude                           | ana-claude",
            "ana-code                             | ana-code",
            "gem-8d1f2a                           | gem-8d1f2a",
            "session-a                            | session-a",
            "abcdefghijklmnopqrstuvwxyz           | abcdefghijkl…",
            "3f2a9c1e-7b4d-4e0a-9d2f-1c8b5e6a7f01/toolu_01abc | 3f2a9c1e/toolu_01abc",
    })
    void anIdIsShortenedBetweenWords(String id, String shown) {
        assertThat(SessionName.shortId(id)).isEqualTo(shown);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void shortIdsNeverEndInASeparatorAndArePrefixesOfTheirId(long seed) {
        Random random = new Random(seed);
        String alphabet = "ab1-_.";
        for (int i = 0; i < 2000; i++) {
            StringBuilder id = new StringBuilder();
            for (int n = 1 + random.nextInt(30); n > 0; n--) {
                id.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String shown = SessionName.shortId(id.toString());
            String prefix = shown.endsWith("…") ? shown.substring(0, shown.length() - 1) : shown;
            assertThat(id.toString()).as(id.toString()).startsWith(prefix);
            if (!shown.equals(id.toString()) && !shown.endsWith("…")) {
                assertThat(shown).as(id.toString()).doesNotEndWith("-").doesNotEndWith("_").doesNotEndWith(".");
                assertThat(shown.replaceAll("[-_.]", "")).as(id.toString()).hasSizeGreaterThanOrEqualTo(1);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {7, 8})
    void timeOrderedIdsOfSessionsStartedTogetherStillReadApart(long seed) {
        Random random = new Random(seed);
        long start = 1_790_000_000_000L;
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            shown.add(SessionName.shortId(uuidV7(start + random.nextInt(60_000), random)));
        }
        Set<String> distinct = new HashSet<>(shown);
        assertThat(distinct).as(shown.toString()).hasSizeGreaterThan(18);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "claude-code | 3f2a9c1e-7b4d-4e0a-9d2f-1c8b5e6a7f01 | null     | claude-code 3f2a9c1e",
            "codex       | 01a20ad7-0d1e-7261-a9b4-ba69d2d81e73 | null     | codex 01a20ad7-0d1e",
            "claude-code | 3f2a9c1e-7b4d-4e0a-9d2f-1c8b5e6a7f01 | ' ana '  | ana",
            "api         | 3f2a9c1e-7b4d-4e0a-9d2f-1c8b5e6a7f01 | null     | session 3f2a9c1e",
            "null        | session-a                            | null     | session session-a",
    })
    void aSessionReadsByItsAgentOrItsName(String agent, String id, String name, String shown) {
        assertThat(SessionName.of(agent, id, name)).isEqualTo(shown);
    }

    private static String uuidV7(long millis, Random random) {
        long high = (millis << 16) | 0x7000L | random.nextInt(0x1000);
        long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(high, low).toString();
    }
}
