package io.mover.spi;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RelativePathTest {
    @Test
    void pathsAreSegments() {
        RelativePath path = RelativePath.of("a/b c/é.txt");
        assertThat(path.segments()).containsExactly("a", "b c", "é.txt");
        assertThat(path.parent()).isEqualTo(RelativePath.of("a/b c"));
        assertThat(path.name()).isEqualTo("é.txt");
        assertThat(path.startsWith(RelativePath.of("a"))).isTrue();
        assertThat(RelativePath.of("ab").startsWith(RelativePath.of("a"))).isFalse();
        assertThat(RelativePath.ROOT.resolve("x").resolve("y")).hasToString("x/y");
    }

    @ParameterizedTest
    @ValueSource(strings = {"../etc/passwd", "a/../../b", "/etc/passwd", "a/\0/b", "a//b", "./a", "a/."})
    void hostilePathsAreRefused(String hostile) {
        assertThatThrownBy(() -> RelativePath.of(hostile)).isInstanceOfSatisfying(MoverException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_PATH));
    }

    @Test
    void overlongNamesAreRefused() {
        assertThat(RelativePath.of("x".repeat(255)).name()).hasSize(255);
        assertThatThrownBy(() -> RelativePath.of("x".repeat(256))).isInstanceOf(MoverException.class);
        assertThatThrownBy(() -> RelativePath.of(String.join("/", List.of("é".repeat(127), "y".repeat(200)).stream()
                .flatMap(s -> java.util.stream.Stream.generate(() -> s).limit(15)).toList()))).isInstanceOf(MoverException.class);
    }
}
