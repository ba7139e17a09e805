-- seq must run min, min+1, min+2, ... inside each order: the n-th smallest
-- seq of an order is min + n - 1. A repeated seq or a hole pushes a row off that line.
SELECT order_no, seq, expected_seq
FROM (
    SELECT order_no, seq,
           MIN(seq) OVER (PARTITION BY order_no)
             + ROW_NUMBER() OVER (PARTITION BY order_no ORDER BY seq) - 1 AS expected_seq
    FROM processed
)
WHERE seq <> expected_seq
ORDER BY order_no, seq;
