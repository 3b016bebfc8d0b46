import ArgumentParsing
import BuildInfo

/// hapbench as a whole, for its manual page (`hapbench help --man`), written from its command table.
extension Command {
    static let program = ProgramSpec(
        name: "hapbench", version: BuildInfo.version,
        summary: "benchmarks for hapscope, as same-run ratios",
        usage: ["[command] [options]"],
        description: """
            hapbench measures hapscope's speed as ratios measured in the same run: each figure beside
            its ceiling (memcpy, libsodium called directly, a plain libpcap loop), the two sides of each
            ratio run in alternating rounds in one process, so that the drift of a shared machine
            cancels out. It prints, per benchmark, the median time per operation with the spread over
            rounds, the throughput and the heap allocations per unit, then the ratio and its target
            where the project has one.

            The captures the pipeline is timed on are generated, deterministically (the same seed and
            size give the same bytes), and kept between runs.
            """,
        commands: all, defaultCommand: run.name,
        programOptions: [OptionSpec(["-h", "--help"], help: "show the help of the command (of run when none is named)")],
        sections: [
            ManualSection("EXIT STATUS", [
                .definitions([
                    .init("0", "the benchmarks ran, or the capture was written or analysed"),
                    .init("1", "a benchmark, a generator or an analysis failed"),
                    .init("2", "a usage error"),
                ]),
            ]),
            ManualSection("FILES", [
                .definitions([
                    .init(".build/hapbench-captures", "the generated captures, kept between runs (--capture-dir)"),
                    .init("NAME.keylog", "the key log hapbench generate writes beside the capture NAME.pcap, and analyze reads"),
                ]),
            ]),
            ManualSection("EXAMPLES", [
                .example(command: "hapbench --quick", comment: "Check that every benchmark runs: a fiftieth of the iterations, a 3 MB capture."),
                .example(command: "hapbench --filter crypto --json out.json", comment: "The cryptography benchmarks, with their figures as JSON."),
                .example(
                    command: "hapbench generate --size 300MB -o day.pcap",
                    comment: "A day of HAP traffic as a capture, with its key log day.keylog beside it."),
                .example(command: "hapbench analyze day.pcap", comment: "The analysis alone, with the key log beside the capture."),
            ]),
            ManualSection("SEE ALSO", [
                .references(["hapscope(1)"]),
                .paragraph("docs/benchmarks.md in the source tree: what each ratio means, and the figures."),
            ]),
        ])
}
