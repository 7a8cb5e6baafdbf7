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

    /** The limits are in UTF-8 bytes, also for names resolved one by one (a listing) and for names short in chars. */
    @Test
    void byteLimitsCountEncodedBytes() {
        assertThat(RelativePath.ROOT.resolve("é".repeat(127)).name()).hasSize(127); // 254 bytes
        assertThat(RelativePath.ROOT.resolve("€".repeat(85)).name()).hasSize(85); // 255 bytes
        assertThatThrownBy(() -> RelativePath.ROOT.resolve("€".repeat(86))).isInstanceOf(MoverException.class); // 258 bytes
        assertThatThrownBy(() -> RelativePath.ROOT.resolve("\uD83D\uDE00".repeat(64))).isInstanceOf(MoverException.class); // 256 bytes in 128 chars
        assertThat(RelativePath.utf8Longer("\uD83D\uDE00".repeat(63), 255)).isFalse(); // 252 bytes
        assertThat(RelativePath.utf8Longer("x".repeat(85), 255)).isFalse();
        assertThat(RelativePath.utf8Longer("x".repeat(256), 255)).isTrue();
    }

    /** Parsed and resolved paths are the same value: names, parents, segments, order and prefixes. */
    @Test
    void resolvedPathsEqualParsedOnes() {
        RelativePath resolved = RelativePath.ROOT.resolve("a").resolve("b c").resolve("d");
        RelativePath parsed = RelativePath.of("a/b c/d");
        assertThat(resolved).isEqualTo(parsed).hasSameHashCodeAs(parsed).hasToString("a/b c/d");
        assertThat(resolved.segments()).isEqualTo(parsed.segments()).containsExactly("a", "b c", "d");
        assertThat(resolved.depth()).isEqualTo(3);
        assertThat(parsed.parent()).isEqualTo(RelativePath.of("a/b c")).hasToString("a/b c");
        assertThat(parsed.parent().parent().parent()).isSameAs(RelativePath.ROOT);
        assertThat(RelativePath.ROOT.parent()).isSameAs(RelativePath.ROOT);
        assertThat(RelativePath.ROOT.name()).isEmpty();
        assertThat(RelativePath.ROOT.segments()).isEmpty();
        assertThat(RelativePath.of("a").resolve(RelativePath.of("b/c"))).isEqualTo(RelativePath.of("a/b/c"));
        assertThat(parsed.startsWith(RelativePath.ROOT)).isTrue();
        assertThat(parsed.startsWith(RelativePath.of("a/b c"))).isTrue();
        assertThat(parsed.startsWith(parsed)).isTrue();
        assertThat(parsed.startsWith(RelativePath.of("a/b"))).isFalse();
        assertThat(RelativePath.of("a").startsWith(parsed)).isFalse();
        assertThat(RelativePath.of("a/b").compareTo(RelativePath.of("a/b/c"))).isNegative();
        assertThat(RelativePath.of("a/c").compareTo(RelativePath.of("a/b/c"))).isPositive();
        assertThat(RelativePath.of("a-b").compareTo(RelativePath.of("a/b"))).isPositive(); // by segments, not by text
        assertThat(parsed.compareTo(resolved)).isZero();
        assertThatThrownBy(() -> parsed.segments().add("x")).isInstanceOf(UnsupportedOperationException.class);
    }

    /** The whole path is built on first use, whichever ancestors already have theirs and in whichever order they are asked. */
    @Test
    void pathsBuiltOnFirstUseAreTheWholePath() {
        RelativePath folder = RelativePath.ROOT.resolve("a").resolve("b");
        RelativePath child = folder.resolve("c");
        assertThat(child).hasToString("a/b/c");
        assertThat(folder).hasToString("a/b");
        assertThat(folder.resolve("d")).hasToString("a/b/d");
        RelativePath underParsed = RelativePath.of("x/y/z").parent().resolve("w");
        assertThat(underParsed).hasToString("x/y/w").isEqualTo(RelativePath.of("x/y/w"));
        assertThat(RelativePath.of("x/y").parent().resolve("v")).hasToString("x/v");
        assertThat(RelativePath.ROOT.resolve("top")).hasToString("top");
    }

    @Test
    void theDeepestPathAllowedParsesWithItsAncestorsWhole() {
        // 2,048 one-letter names: every ancestor must still print, compare and hash as its own prefix
        String deep = "a/".repeat(RelativePath.MAX_PATH_BYTES / 2 - 1) + "z";
        RelativePath path = RelativePath.of(deep);

        assertThat(path.depth()).isEqualTo(RelativePath.MAX_PATH_BYTES / 2);
        assertThat(path).hasToString(deep);
        RelativePath ancestor = path.parent().parent();
        assertThat(ancestor).hasToString(deep.substring(0, deep.length() - 4)).isEqualTo(RelativePath.of(ancestor.toString()));
        assertThat(ancestor.hashCode()).isEqualTo(ancestor.toString().hashCode());
        assertThat(path.startsWith(ancestor)).isTrue();
        assertThat(ancestor.resolve("a").resolve("z")).isEqualTo(path);
    }
}
