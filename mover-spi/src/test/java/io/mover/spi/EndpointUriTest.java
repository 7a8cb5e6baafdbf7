package io.mover.spi;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EndpointUriTest {
    @Test
    void plainPathsAreFileUris() {
        EndpointUri uri = EndpointUri.parse("/data/in/../out");
        assertThat(uri.scheme()).isEqualTo("file");
        assertThat(uri.path()).isEqualTo("/data/out");
        assertThat(uri).hasToString("/data/out");
    }

    @Test
    void secretsNeverPrint() {
        EndpointUri sas = EndpointUri.parse("https://acct.file.core.windows.net/share/dir?sv=2024&sig=SECRET");
        assertThat(sas.toString()).doesNotContain("SECRET").endsWith("?[hidden]");
        assertThat(sas.query()).hasValueSatisfying(q -> assertThat(q.reveal()).contains("sig=SECRET"));

        EndpointUri password = EndpointUri.parse("sftp://alice:hunter2@host:22/data");
        assertThat(password.toString()).doesNotContain("hunter2").contains("alice:[hidden]@host:22");

        assertThatThrownBy(() -> EndpointUri.parse("sftp://bob:hunter2@host/a b?sig=SECRET"))
                .hasMessageNotContaining("hunter2").hasMessageNotContaining("SECRET");
    }

    @Test
    void containmentIsBySegmentsNotPrefixes() {
        EndpointUri base = EndpointUri.parse("/data/in");
        assertThat(base.contains(EndpointUri.parse("/data/in/sub"))).isTrue();
        assertThat(base.contains(EndpointUri.parse("/data/in"))).isTrue();
        assertThat(base.contains(EndpointUri.parse("/data/inner"))).isFalse();
        assertThat(EndpointUri.parse("mem://a/x").contains(EndpointUri.parse("mem://b/x/y"))).isFalse();
    }

    @Test
    void badLocationsSayWhatToDo() {
        assertThatThrownBy(() -> EndpointUri.parse(" ")).hasMessageContaining("name a path");
        assertThatThrownBy(() -> EndpointUri.parse("/a\0b")).isInstanceOfSatisfying(MoverException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_PATH));
    }
}
