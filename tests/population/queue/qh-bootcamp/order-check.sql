-- Find seq problems inside each order_no:
--   next_seq = seq      -> duplicated seq
--   next_seq > seq + 1  -> missing seq(s) in between
-- Returns 0 rows when everything is in order.
SELECT order_no, seq, next_seq
FROM (
    SELECT order_no,
           seq,
           LEAD(seq) OVER (PARTITION BY order_no ORDER BY seq) AS next_seq
    FROM processed
) AS t
WHERE next_seq IS NOT NULL
  AND next_seq <> seq + 1;
