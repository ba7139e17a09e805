-- order-check.sql : per order_no, find seq values that are duplicated or missing (holes between min and max)
-- clean ledger => 0 rows
WITH ordered AS (
    SELECT order_no,
           CAST(seq AS INTEGER) AS seq,
           LAG(CAST(seq AS INTEGER)) OVER (PARTITION BY order_no ORDER BY CAST(seq AS INTEGER)) AS prev_seq
    FROM processed
),
problems AS (
    SELECT order_no,
           prev_seq,
           seq,
           CASE WHEN seq = prev_seq THEN 'DUPLICATE_SEQ'
                ELSE 'MISSING_SEQ ' || (prev_seq + 1) || '..' || (seq - 1)
           END AS issue
    FROM ordered
    WHERE prev_seq IS NOT NULL
      AND seq - prev_seq <> 1
)
SELECT order_no, prev_seq, seq, issue
FROM problems
ORDER BY order_no, seq;
