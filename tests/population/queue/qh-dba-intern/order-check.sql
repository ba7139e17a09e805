/*
 * order-check.sql -- sequence integrity of processed, per order_no.
 *
 * Gaps-and-islands: number the rows of each order by seq. In a clean order
 * seq - ROW_NUMBER() is the same for every row (one "island").
 *   a hole (1,2,4)      -> the value steps up   -> 2 islands
 *   a duplicate (1,2,2) -> the value steps down -> 2 islands
 * so any order with more than one island has a duplicated or missing seq.
 * A clean ledger returns no rows.
 */
WITH numbered AS (
    SELECT order_no,
           seq,
           seq - ROW_NUMBER() OVER (PARTITION BY order_no ORDER BY seq) AS island
    FROM processed
)
SELECT order_no,
       COUNT(DISTINCT island)              AS islands,
       MIN(seq)                            AS first_seq,
       MAX(seq)                            AS last_seq,
       COUNT(*)                            AS rows_seen,
       COUNT(*) - COUNT(DISTINCT seq)      AS duplicated_rows,
       MAX(seq) - MIN(seq) + 1 - COUNT(DISTINCT seq) AS missing_seqs
FROM numbered
GROUP BY order_no
HAVING COUNT(DISTINCT island) > 1
ORDER BY order_no;
