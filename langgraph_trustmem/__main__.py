from langgraph_trustmem.cli import main

main()
