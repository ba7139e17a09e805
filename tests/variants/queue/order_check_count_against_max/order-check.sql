-- order_no 별로: seq 는 1 부터 시작하므로 정상이면 행 수 = 서로 다른 seq 수 = MAX(seq)
SELECT order_no, COUNT(*) AS rows_n, COUNT(DISTINCT seq) AS distinct_n, MAX(seq) AS max_seq
  FROM processed
 GROUP BY order_no
HAVING COUNT(*) <> COUNT(DISTINCT seq)
    OR COUNT(*) <> MAX(seq)
