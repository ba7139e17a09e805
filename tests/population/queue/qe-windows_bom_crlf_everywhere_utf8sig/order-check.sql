-- seq duplicated (same as previous) or missing (jump > 1) within one order_no
SELECT order_no, prev_seq, seq
FROM (
    SELECT order_no,
           seq,
           LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS prev_seq
    FROM processed
) AS t
WHERE prev_seq IS NOT NULL
  AND (seq = prev_seq OR seq > prev_seq + 1);
