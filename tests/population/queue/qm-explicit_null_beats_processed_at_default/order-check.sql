-- Gaps and duplicate seq per order_no (0 rows = in order).
WITH w AS (
  SELECT order_no, seq,
         LEAD(seq) OVER (PARTITION BY order_no ORDER BY seq) AS next_seq
  FROM processed
)
SELECT order_no, seq, next_seq
FROM w
WHERE next_seq IS NOT NULL AND next_seq <> seq + 1;
