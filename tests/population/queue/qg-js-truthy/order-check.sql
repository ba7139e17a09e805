SELECT order_no, seq, prevSeq
FROM (
  SELECT order_no, seq, LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS prevSeq
  FROM processed
)
WHERE prevSeq IS NOT NULL AND seq != prevSeq + 1;
