from mpisim.cli import command

command()
