package dev.tierproof.flink;

import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Workload;
import dev.tierproof.run.Steps;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.runtime.typeutils.ExternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;

/**
 * A whole workload written in one Flink job (issue 10): a bounded source at parallelism 1 yields
 * the workload's operations in order — an upsert as an insert, a delete as a delete by key — and
 * Flink's own table sink writes them, so one job and one commit replace one job per statement.
 * The sink sees the writes in the workload's order (one source subtask, order kept per channel);
 * the oracle then judges that last write wins. A table whose sink would need more than the
 * upserts and deletes themselves (the planner materializing or normalizing them, which could
 * merge or drop writes before the table sees them) is refused, not written differently.
 *
 * <p>The source reads the operations from the Rust workload handle, held in this JVM for the
 * job's lifetime: the job runs on the embedded MiniCluster.
 */
public final class OrderedWrite {
    /** Operations fetched from the core at a time. */
    static final int BATCH = 10_000;

    /** Workloads being written, by job: the source finds its operations here. */
    private static final Map<Long, Workload> WRITING = new ConcurrentHashMap<>();
    private static final AtomicLong NEXT = new AtomicLong();

    private OrderedWrite() {}

    /**
     * Writes every operation of {@code workload} into {@code table} in one streaming job on
     * {@code engine}, bounded by {@code deadline}; {@code catalog} registers the catalog that
     * resolves {@code table}.
     */
    public static void run(Steps steps, FlinkEngine engine, Consumer<StreamTableEnvironment> catalog, String table,
            Workload workload, Duration deadline) {
        StreamExecutionEnvironment env = engine.streamEnvironment();
        StreamTableEnvironment tables = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
        tables.getConfig().setLocalTimeZone(ZoneOffset.UTC); // TIMESTAMP_LTZ values are UTC instants
        catalog.accept(tables);
        ResolvedSchema schema = tables.from(table).getResolvedSchema();
        List<Column> columns = schema.getColumns();
        boolean keyed = schema.getPrimaryKey().isPresent();
        long id = NEXT.incrementAndGet();
        WRITING.put(id, workload);
        try {
            DataType rowType = org.apache.flink.table.api.DataTypes.ROW(columns.stream()
                    .map(c -> org.apache.flink.table.api.DataTypes.FIELD(c.getName(), c.getDataType()))
                    .toArray(org.apache.flink.table.api.DataTypes.Field[]::new));
            DataGeneratorSource<Row> source = new DataGeneratorSource<>(new Operations(id,
                    columns.stream().map(c -> c.getDataType().getLogicalType()).toList()), workload.operations(),
                    ExternalTypeInfo.of(rowType));
            DataStream<Row> rows = env.fromSource(source, WatermarkStrategy.noWatermarks(), "workload of "
                    + workload.operations() + " operations").setParallelism(1);
            // Inserts and deletes, with no key declared: an upsert source would pass through Flink's
            // ChangelogNormalize (state that drops a delete of an absent key and may fold repeats), and a
            // sink materializer could reorder; neither may stand between the workload and the table.
            tables.getConfig().set(ExecutionConfigOptions.TABLE_EXEC_SINK_UPSERT_MATERIALIZE,
                    ExecutionConfigOptions.UpsertMaterialize.NONE);
            Schema.Builder columnsOnly = Schema.newBuilder();
            columns.forEach(c -> columnsOnly.column(c.getName(), c.getDataType()));
            Table changes = tables.fromChangelogStream(rows, columnsOnly.build(), keyed
                    ? ChangelogMode.newBuilder().addContainedKind(RowKind.INSERT).addContainedKind(RowKind.DELETE)
                            .build()
                    : ChangelogMode.insertOnly());
            String plan = changes.insertInto(table).explain();
            // As the plan prints them: a ChangelogNormalize node, a sink with upsertMaterialize=[true].
            for (String node : List.of("ChangelogNormalize", "upsertMaterialize=[true]")) {
                if (plan.contains(node)) {
                    throw new IllegalArgumentException("the ordered write of " + table + " would pass through Flink's "
                            + node + ", which may merge or drop writes before the table sees them: use --writer"
                            + " statements");
                }
            }
            steps.execute("writing " + workload.operations() + " operations in one ordered job", deadline, control -> {
                try {
                    TableResult result = changes.executeInsert(table);
                    control.onCancel(() -> result.getJobClient().ifPresent(JobClient::cancel));
                    if (!control.cancelled()) {
                        result.await();
                    }
                } catch (Exception e) {
                    if (control.cancelled()) {
                        return;
                    }
                    throw new TierproofException("the ordered write into " + table + " failed: "
                            + Steps.rootMessage(e), e);
                }
            });
        } finally {
            WRITING.remove(id);
        }
    }

    /** The workload's operations as rows, in order, fetched from the core a batch at a time. */
    private static final class Operations implements GeneratorFunction<Long, Row> {
        private static final long serialVersionUID = 1L;
        private final long id;
        private final List<LogicalType> types;
        private transient Workload workload;
        private transient List<Workload.Operation> batch;
        private transient long batchStart;

        Operations(long id, List<LogicalType> types) {
            this.id = id;
            this.types = List.copyOf(types);
        }

        @Override
        public void open(SourceReaderContext context) {
            workload = WRITING.get(id);
            if (workload == null) {
                throw new TierproofException("the ordered write's workload is gone: its job outlived the write");
            }
            batch = List.of();
        }

        @Override
        public Row map(Long index) {
            long i = index;
            if (i < batchStart || i >= batchStart + batch.size()) {
                batchStart = i;
                batch = workload.operations((int) i, (int) Math.min(BATCH, workload.operations() - i));
            }
            Workload.Operation op = batch.get((int) (i - batchStart));
            Row row = Row.withPositions(op.delete() ? RowKind.DELETE : RowKind.INSERT, types.size());
            for (int c = 0; c < types.size(); c++) {
                row.setField(c, op.cells()[c] == null ? null : FlinkValues.value(types.get(c), op.cells()[c]));
            }
            return row;
        }
    }
}
