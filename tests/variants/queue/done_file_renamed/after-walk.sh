first=$(ls done | sort | head -n 1)
mv "done/$first" "done/$first.bak"
