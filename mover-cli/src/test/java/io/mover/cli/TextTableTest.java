package io.mover.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TextTableTest {
    @Test
    void columnsAreAsWideAsTheirWidestCellAndTheLastIsNotPadded() {
        StringWriter text = new StringWriter();
        TextTable.print(new PrintWriter(text, true), List.of(new String[] {"ID", "STATE", "PATH"}, new String[] {"job-1", "RUNNING", "a → b"},
                new String[] {"j2", "QUEUED", "longer → path"}));

        assertThat(text.toString().lines()).containsExactly(
                "ID     STATE    PATH",
                "job-1  RUNNING  a → b",
                "j2     QUEUED   longer → path");
    }

    @Test
    void noRowsPrintNothing() {
        StringWriter text = new StringWriter();
        TextTable.print(new PrintWriter(text, true), List.of());

        assertThat(text.toString()).isEmpty();
    }
}
