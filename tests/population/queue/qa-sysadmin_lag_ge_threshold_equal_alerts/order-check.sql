SELECT order_no, seq, prev
  FROM (SELECT order_no, seq, LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS prev FROM processed)
 WHERE prev IS NOT NULL AND seq <> prev + 1;
