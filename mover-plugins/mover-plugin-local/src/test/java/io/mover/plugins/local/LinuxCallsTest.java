package io.mover.plugins.local;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Names as the kernel gets them ({@link NativeNames}) and a call's memory ({@link NativeScratch}). */
final class LinuxCallsTest {
    private static byte[] nul(String text, java.nio.charset.Charset charset) {
        byte[] bytes = text.getBytes(charset);
        return java.util.Arrays.copyOf(bytes, bytes.length + 1);
    }

    @Test
    void utf8NamesAreExactOrRefused() {
        NativeNames names = new NativeNames(StandardCharsets.UTF_8);

        assertThat(names.encode("plain/name.txt")).isEqualTo(nul("plain/name.txt", StandardCharsets.UTF_8));
        assertThat(names.encode("caf\u00e9 \u65e5\u672c")).isEqualTo(nul("caf\u00e9 \u65e5\u672c", StandardCharsets.UTF_8));
        // a surrogate pair is one character of four bytes
        assertThat(names.encode("x\uD83D\uDE00")).isEqualTo(new byte[] {'x', (byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80, 0});
        // a lone surrogate has no UTF-8 form (getBytes would write '?', naming another file)
        assertThat(names.encode("x\uD83D")).isNull();
        assertThat(names.encode("bad\uFFFDname")).isNull();
        assertThat(names.encode("nul\0name")).isNull();
    }

    @Test
    void otherCharsetsGoThroughTheEncoder() {
        NativeNames ascii = new NativeNames(StandardCharsets.US_ASCII);
        NativeNames latin1 = new NativeNames(StandardCharsets.ISO_8859_1);

        assertThat(ascii.encode("name.txt")).isEqualTo(nul("name.txt", StandardCharsets.US_ASCII));
        assertThat(ascii.encode("caf\u00e9")).isNull();
        assertThat(latin1.encode("caf\u00e9")).isEqualTo(new byte[] {'c', 'a', 'f', (byte) 0xE9, 0});
        assertThat(latin1.encode("\u65e5")).isNull();
    }

    /** A name longer than the scratch block holds is refused as the kernel refuses it, never cut or overrun. */
    @Test
    void aNameLongerThanPathMaxIsRefusedAsTheKernelWould() {
        assumeTrue(LinuxCalls.INSTANCE.isPresent(), "Linux only");
        LinuxCalls calls = LinuxCalls.INSTANCE.get();
        byte[] name = calls.nativeName("/" + "a".repeat(NativeScratch.NAME_SIZE));

        assertThatThrownBy(() -> calls.open(name, LinuxCalls.O_RDONLY, 0, Path.of("long")))
                .isInstanceOfSatisfying(NativeError.class, e -> assertThat(e.code()).isEqualTo(LinuxCalls.ENAMETOOLONG));
    }

    /** Blocks are reused: a file's calls cost no allocation once the pool holds one. */
    @Test
    void aClosedBlockIsTakenAgain() {
        assumeTrue(LinuxCalls.INSTANCE.isPresent(), "Linux only");
        LinuxCalls calls = LinuxCalls.INSTANCE.get();
        NativeScratch first = calls.scratch();
        NativeScratch held = calls.scratch();
        assertThat(held).isNotSameAs(first);
        first.close();
        held.close();
        // the pool is shared with other tests' copies: one of the two comes back
        try (NativeScratch again = calls.scratch()) {
            assertThat(again.state.address()).isIn(first.state.address(), held.state.address());
        }
    }

    /** A second close must not pool a block twice: two files would then share one errno and one pair of names. */
    @Test
    void aBlockClosedTwiceIsPooledOnce() {
        assumeTrue(LinuxCalls.INSTANCE.isPresent(), "Linux only");
        LinuxCalls calls = LinuxCalls.INSTANCE.get();
        NativeScratch scratch = calls.scratch();
        scratch.close();
        scratch.close();

        try (NativeScratch one = calls.scratch(); NativeScratch two = calls.scratch()) {
            assertThat(one.state.address()).isNotEqualTo(two.state.address());
            // a late close, the block now another file's, gives nothing back either
            scratch.close();
            try (NativeScratch three = calls.scratch()) {
                assertThat(three.state.address()).isNotIn(one.state.address(), two.state.address());
            }
        }
    }
}
