/*
 * order-check.sql
 * Finds, per order_no, every seq that is duplicated and every gap
 * (a hole between the smallest and largest seq of the order).
 * Result columns: order_no, problem, seq_from, seq_to
 * Clean ledger => 0 rows.
 */
WITH ordered AS (
    SELECT order_no,
           seq,
           LEAD(seq) OVER (PARTITION BY order_no ORDER BY seq) AS next_seq
    FROM processed
),
duplicates AS (
    SELECT order_no, 'DUPLICATE' AS problem, seq AS seq_from, seq AS seq_to
    FROM processed
    GROUP BY order_no, seq
    HAVING COUNT(*) > 1
),
gaps AS (
    SELECT order_no, 'GAP' AS problem, seq + 1 AS seq_from, next_seq - 1 AS seq_to
    FROM ordered
    WHERE next_seq IS NOT NULL AND next_seq - seq > 1
)
SELECT order_no, problem, seq_from, seq_to FROM duplicates
UNION ALL
SELECT order_no, problem, seq_from, seq_to FROM gaps
ORDER BY order_no, seq_from;
